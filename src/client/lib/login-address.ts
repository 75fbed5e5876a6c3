/** The sign-in page's address that brings the person back to `wanted` afterwards. */
export const loginAddress = (wanted: string) => `/login?redirect=${encodeURIComponent(wanted)}`;
