import { proxy, subscribe, useSnapshot } from 'valtio';
import { AUTH_STORAGE_KEY } from './constants';
import { signedOutHere } from './signed-out-here';
import { ROLES } from '../../shared/permissions';
import type { LoginResponse, Role } from '../../shared/types';

/**
 * The signed-in user as kept in the browser (docs/architecture.md#signing-in-and-the-session-in-the-browser), with the role that decides what the
 * pages offer (docs/architecture.md#roles-and-the-audit-log). `role` is null for a session stored before roles existed, or when
 * the API did not name one: such a user is offered only what every role may do.
 */
export interface StoredUser {
  id: number;
  firstName: string;
  surname: string;
  email: string;
  role: Role | null;
  /** Absent for a session stored before people had a zone, or from a provider that sends none. */
  timeZone?: string;
}

export interface AuthState {
  token: string | null;
  user: StoredUser | null;
}

const isAuthState = (value: unknown): value is AuthState =>
  typeof value === 'object' &&
  value !== null &&
  'token' in value &&
  (typeof value.token === 'string' || value.token === null);

const roleOf = (value: unknown): Role | null => ROLES.find((role) => role === value) ?? null;

// A damaged or hand-edited entry must not break the app: it counts as signed out.
const load = (): AuthState => {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? 'null');
    if (isAuthState(parsed)) return { token: parsed.token, user: parsed.user ? { ...parsed.user, role: roleOf(parsed.user.role) } : null };
  } catch {
    // fall through to signed out
  }
  return { token: null, user: null };
};

export const authState = proxy<AuthState>(load());

/** Why this tab's session ended when the person did not sign out here; the sign-in page says it. */
export const SIGN_OUT_REASONS = {
  ended: 'Your session ended: sign in again.',
  otherTab: 'You signed out in another tab: sign in again.',
} as const;

// Kept in memory only: the message belongs to the sign-out that just happened, not to a reload.
export const signOutNotice = proxy<{ reason: string | null }>({ reason: null });

subscribe(authState, () => {
  localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify({ token: authState.token, user: authState.user }));
});

// Another tab signed in or out: follow it, so signing out in one tab signs out every tab (the
// route guard then sends each to /login). Writing back the same value fires no further event.
window.addEventListener('storage', (event) => {
  if (event.key !== AUTH_STORAGE_KEY && event.key !== null) return;
  const next = load();
  if (authState.token && !next.token) signOutNotice.reason = SIGN_OUT_REASONS.otherTab;
  authState.token = next.token;
  authState.user = next.user;
});

export const signIn = (response: LoginResponse) => {
  signOutNotice.reason = null;
  signedOutHere.forget();
  authState.token = response.token;
  authState.user = {
    id: response.userId ?? 0,
    firstName: response.firstName,
    surname: response.surname,
    email: response.email,
    role: roleOf(response.role),
    timeZone: response.timeZone,
  };
};

/** A fresh token for the same user, such as the one a password change answers with. */
export const replaceToken = (token: string) => {
  authState.token = token;
};

// Settles once the request that is replacing this session's token has answered and its token is in.
let tokenChange: Promise<unknown> = Promise.resolve();

/**
 * Sends a request that ends this session's token and answers with its successor (a password
 * change). The server ends the old token as it commits, before its answer arrives: a request sent
 * meanwhile gets a 401 that is this change, not the end of the session, so the API client waits
 * for `tokenChangeSettled` before deciding.
 */
export const changeToken = <T extends { token?: string }>(request: Promise<T>) => {
  const changed = request.then((answer) => {
    if (answer.token) replaceToken(answer.token);
    return answer;
  });
  tokenChange = changed.catch(() => undefined);
  return changed;
};

export const tokenChangeSettled = () => tokenChange;

export const setStoredRole = (role: Role) => {
  if (authState.user) authState.user.role = role;
};

/** Forgets the session; `reason` is what the sign-in page tells a person who did not ask for this. */
export const signOut = (reason: string | null = null) => {
  signOutNotice.reason = reason;
  authState.token = null;
  authState.user = null;
};

export const updateStoredUser = (changes: Omit<StoredUser, 'id' | 'role'>) => {
  if (authState.user) Object.assign(authState.user, changes);
};

export const useAuth = () => useSnapshot(authState);
