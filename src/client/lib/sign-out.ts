import { authState, signOut } from './auth-store';
import { callApi } from './endpoints';
import { signedOutHere } from './signed-out-here';

/**
 * Ends this browser's token on the server and signs out here; the person's sessions on other
 * devices stay. The logout call takes its token from the store as it starts (before its first
 * await), so the token can be forgotten at once: the page does not wait for the server, and a
 * failed call still signs out here. Other tabs of this browser follow through the store's
 * `storage` listener.
 */
export const endThisSession = async () => {
  signedOutHere.mark();
  if (!authState.token) return signOut();
  const ended = callApi('POST /auth/logout');
  signOut();
  await ended.catch(() => undefined);
};
