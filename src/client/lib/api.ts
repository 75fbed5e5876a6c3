import { API_BASE, REQUEST_TIMEOUT_MS } from '../../shared/constants';
import { authState, signOut } from './auth-store';

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
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** SPEC.md §8: a 400 carries the body's message, else its error, else the whole body, else 'Bad Request'. */
export const badRequestMessage = (body: unknown, raw: string) => {
  if (body && typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    return textOf(fields.message) ?? textOf(fields.error) ?? JSON.stringify(body);
  }
  return textOf(raw) ?? 'Bad Request';
};

const messageFor = (status: number, body: unknown, raw: string, statusText: string) => {
  if (status === 400) return badRequestMessage(body, raw);
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

/** One call to the API: bearer token, 10 s timeout, no retries. */
export const apiRequest = async <T>(path: string, { method = 'GET', body, authenticated = true }: RequestOptions = {}): Promise<T> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (authenticated && authState.token) headers.authorization = `Bearer ${authState.token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}/${path.replace(/^\//, '')}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new ApiError(0, timedOut ? 'The server did not answer in time' : 'Could not reach the server');
  }

  const raw = await response.text();
  const parsed = parse(raw);
  if (response.status === 401 && authenticated) {
    // Clearing the token makes the route guard send the user to /login, keeping the address.
    signOut();
  }
  if (!response.ok) throw new ApiError(response.status, messageFor(response.status, parsed, raw, response.statusText), parsed);
  return parsed as T;
};
