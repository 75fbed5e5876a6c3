import { API_BASE, REQUEST_TIMEOUT_MS } from '../../shared/constants';
import type { Versioned } from '../../shared/types';
import { SIGN_OUT_REASONS, authState, signOut, tokenChangeSettled } from './auth-store';

/** A failed call: the HTTP status (0 when no answer came) and the parsed body when there was one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Login is the one call sent without the token. */
  authenticated?: boolean;
  /** Ends the call early, e.g. when a newer search replaces it; the 10 s timeout still applies. */
  signal?: AbortSignal;
  /**
   * The version of the record the edit was made from, sent as `If-Match: "<version>"`: when the
   * record has changed since, the provider refuses with 412 (see isConflict, docs/architecture.md#record-versions).
   */
  ifMatch?: number;
  /**
   * A file (an export, a backup): the 10 s timeout covers waiting for the answer to begin, not
   * reading it, which for a large export streamed from the database takes longer.
   */
  download?: boolean;
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** docs/api.md#errors: a 400 carries the body's message, else its error, else the whole body, else 'Bad Request'. */
export const badRequestMessage = (body: unknown, raw: string) => {
  if (body && typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    return textOf(fields.message) ?? textOf(fields.error) ?? JSON.stringify(body);
  }
  return textOf(raw) ?? 'Bad Request';
};

/** The message of a 412, whose body is the current record rather than an error. */
export const CONFLICT_MESSAGE = 'Someone else changed this record after you opened it';

const messageFor = (status: number, body: unknown, raw: string, statusText: string) => {
  if (status === 400) return badRequestMessage(body, raw);
  if (status === 412) return CONFLICT_MESSAGE;
  if (body && typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    const text = textOf(fields.message) ?? textOf(fields.detail) ?? textOf(fields.error);
    if (text) return text;
  }
  return statusText || `Request failed with status ${status}`;
};

const parse = (raw: string): unknown => {
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
};

/** One exchange with the API: bearer token, 10 s timeout, no retries, errors mapped per docs/api.md#errors. */
export const apiFetch = async (path: string, { method = 'GET', body, authenticated = true, signal, ifMatch, download = false }: RequestOptions, accept: string) => {
  const headers: Record<string, string> = { accept };
  // A file (an import's CSV) goes as it is, under its own type; anything else as JSON.
  if (body !== undefined) headers['content-type'] = body instanceof Blob ? body.type || 'application/octet-stream' : 'application/json';
  if (ifMatch !== undefined) headers['if-match'] = `"${ifMatch}"`;
  const token = authenticated ? authState.token : null;
  if (token) headers.authorization = `Bearer ${token}`;

  const answered = new AbortController();
  const timer = download ? setTimeout(() => answered.abort(new DOMException('signal timed out', 'TimeoutError')), REQUEST_TIMEOUT_MS) : undefined;
  const timeout = download ? answered.signal : AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path.replace(/^\//, '')}`, {
      method,
      headers,
      body: body === undefined ? undefined : body instanceof Blob ? body : JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiError(0, timedOut ? 'The server did not answer in time' : 'Could not reach the server');
  } finally {
    clearTimeout(timer);
  }

  // Clearing the token makes the route guard send the user to /login, keeping the address. A 401
  // for a token replaced, or being replaced, by a password change ends nothing.
  // The server does not say why (a role change, a deactivation, a password reset all look alike).
  if (response.status === 401 && authenticated && authState.token === token) {
    await tokenChangeSettled();
    if (authState.token === token) signOut(SIGN_OUT_REASONS.ended);
  }
  if (!response.ok) {
    const raw = await response.text();
    const parsed = parse(raw);
    throw new ApiError(response.status, messageFor(response.status, parsed, raw, response.statusText), parsed);
  }
  return response;
};

/** A save refused because the record changed since it was read (412): its body is the record as it now is. */
export const isConflict = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 412;

/** The current record a 412 carries, or null for any other error. */
export const conflictRecord = <T extends Versioned>(error: unknown): T | null => {
  if (!isConflict(error)) return null;
  const body = error.body as Partial<Versioned> | null;
  return body && typeof body.version === 'number' ? (body as T) : null;
};

/** A JSON call to the API. */
export const apiRequest = async <T>(path: string, options: RequestOptions = {}): Promise<T> =>
  parse(await (await apiFetch(path, options, 'application/json')).text()) as T;
