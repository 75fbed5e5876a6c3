import { authState, signOut } from './auth-store';
import { callApi } from './endpoints';

/**
 * Signs out on the server and here. The logout call takes its token from the store as it starts
 * (before its first await), so the token can be forgotten at once: the page does not wait for
 * the server, and a failed call still signs out here. Other tabs follow through the store's
 * `storage` listener.
 */
export const signOutEverywhere = async () => {
  if (!authState.token) return signOut();
  const ended = callApi('POST /auth/logout');
  signOut();
  await ended.catch(() => undefined);
};
