// sessionStorage belongs to this tab alone, and survives its reloads but not its closing.
const KEY = 'staff-app:signed-out-here';

/**
 * Whether the person signed out in this tab (docs/operations.md#cloudflare-access): the sign-in page
 * then offers "Continue as" without taking it by itself, so signing out does not sign straight
 * back in. A sign-in forgets it.
 */
export const signedOutHere = {
  mark: () => sessionStorage.setItem(KEY, '1'),
  forget: () => sessionStorage.removeItem(KEY),
  get: () => sessionStorage.getItem(KEY) === '1',
};
