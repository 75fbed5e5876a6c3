import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/shared/constants';
import { AUTH_STORAGE_KEY } from '../../src/client/lib/constants';
import { ApiError, CONFLICT_MESSAGE, apiRequest, badRequestMessage, conflictRecord, isConflict } from '../../src/client/lib/api';
import { authState, changeToken, replaceToken, signIn } from '../../src/client/lib/auth-store';

const reply = (status: number, body: unknown) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });

describe('badRequestMessage (docs/api.md#errors)', () => {
  it.each([
    [{ message: 'Bad email', error: 'other' }, 'Bad email'],
    [{ error: 'Broken' }, 'Broken'],
    [{ detail: 'x' }, '{"detail":"x"}'],
    [null, 'Bad Request'],
  ])('maps %j to %s', (body, expected) => {
    expect(badRequestMessage(body, body === null ? '' : JSON.stringify(body))).toBe(expected);
  });

  it('uses a non-JSON body as the message', () => {
    expect(badRequestMessage(null, 'plain words')).toBe('plain words');
  });
});

describe('apiRequest', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    signIn({ token: 'tok', firstName: 'A', surname: 'B', email: 'a@b.c', userId: 7, role: 'staff' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('sends the bearer token to /api/v1 with an abort signal and returns the JSON', async () => {
    fetchMock.mockResolvedValue(reply(200, { id: 7 }));
    await expect(apiRequest('users/7')).resolves.toEqual({ id: 7 });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/users/7');
    expect((init?.headers as Record<string, string>).authorization).toBe('Bearer tok');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('gives up after 10 s without an answer, with one attempt', async () => {
    vi.useFakeTimers();
    // happy-dom's AbortSignal.timeout runs on its window's own timers, which fake timers do not
    // reach; this one behaves as the browser's does, on the faked clock.
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new DOMException('signal timed out', 'TimeoutError')), ms);
      return controller.signal;
    });
    try {
      // A server that never answers: the request ends only when its signal aborts.
      fetchMock.mockImplementation(
        (_, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
      );
      let settled: unknown = 'pending';
      const call = apiRequest('users').then(
        (value) => (settled = value),
        (error: unknown) => (settled = error),
      );
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
      expect(settled).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      await call;
      expect(settled).toMatchObject({ status: 0, message: 'The server did not answer in time' });
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });

  it('sends no token on an unauthenticated call', async () => {
    fetchMock.mockResolvedValue(reply(200, {}));
    await apiRequest('auth/login', { method: 'POST', body: {}, authenticated: false });
    expect((fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('raises the 400 message', async () => {
    fetchMock.mockResolvedValue(reply(400, { message: 'email: Required' }));
    await expect(apiRequest('users', { method: 'POST', body: {} })).rejects.toMatchObject({
      status: 400,
      message: 'email: Required',
    });
  });

  it('signs out on a 401 from an authenticated call, and only then', async () => {
    fetchMock.mockResolvedValue(reply(401, { message: 'expired' }));
    await expect(apiRequest('users')).rejects.toBeInstanceOf(ApiError);
    expect(authState.token).toBeNull();
    expect(JSON.parse(localStorage.getItem(AUTH_STORAGE_KEY) ?? '{}').token).toBeNull();

    signIn({ token: 'tok2', firstName: 'A', surname: 'B', email: 'a@b.c', userId: 7, role: 'staff' });
    fetchMock.mockResolvedValue(reply(401, { message: 'bad password' }));
    await expect(apiRequest('auth/login', { method: 'POST', body: {}, authenticated: false })).rejects.toMatchObject({ status: 401 });
    expect(authState.token).toBe('tok2');
  });

  it('keeps the session when a 401 answers a token that has since been replaced (a password change)', async () => {
    let answer!: (response: Response) => void;
    fetchMock.mockReturnValue(new Promise<Response>((resolve) => (answer = resolve)));
    const inFlight = apiRequest('users');
    replaceToken('tok-after-password-change');
    answer(reply(401, { message: 'Session ended' }));
    await expect(inFlight).rejects.toMatchObject({ status: 401 });
    expect(authState.token).toBe('tok-after-password-change');
    expect(authState.user?.id).toBe(7);
  });

  it('keeps the session when a 401 for the old token arrives before the password change has answered', async () => {
    let answerChange!: (value: { token: string }) => void;
    const changing = changeToken(new Promise<{ token: string }>((resolve) => (answerChange = resolve)));
    fetchMock.mockResolvedValue(reply(401, { message: 'Session ended' }));
    const refused = apiRequest('users');
    await Promise.resolve();
    answerChange({ token: 'tok-after-password-change' });
    await expect(refused).rejects.toMatchObject({ status: 401 });
    await changing;
    expect(authState.token).toBe('tok-after-password-change');
    expect(authState.user?.id).toBe(7);
  });

  it('still signs out on that 401 when the password change fails', async () => {
    let failChange!: (error: Error) => void;
    const changing = changeToken(new Promise<{ token: string }>((_resolve, reject) => (failChange = reject)));
    fetchMock.mockResolvedValue(reply(401, { message: 'Session ended' }));
    const refused = apiRequest('users');
    failChange(new Error('refused'));
    await expect(changing).rejects.toThrow('refused');
    await expect(refused).rejects.toMatchObject({ status: 401 });
    expect(authState.token).toBeNull();
    expect(authState.user).toBeNull();
  });

  it('sends ifMatch as a quoted If-Match version, and no If-Match without it', async () => {
    fetchMock.mockImplementation(async () => reply(200, { id: 3, version: 5 }));
    await apiRequest('tickets/3', { method: 'PATCH', body: { title: 'x' }, ifMatch: 4 });
    await apiRequest('tickets/3', { method: 'PATCH', body: { title: 'x' } });
    const headersOf = (call: number) => fetchMock.mock.calls[call]?.[1]?.headers as Record<string, string>;
    expect(headersOf(0)['if-match']).toBe('"4"');
    expect(headersOf(1)['if-match']).toBeUndefined();
  });

  it('makes a 412 recognisable, carrying the current record', async () => {
    const current = { id: 3, title: 'Theirs', version: 5 };
    fetchMock.mockResolvedValue(reply(412, current));
    const error = await apiRequest('tickets/3', { method: 'PATCH', body: { title: 'Mine' }, ifMatch: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 412, message: CONFLICT_MESSAGE, body: current });
    expect(isConflict(error)).toBe(true);
    expect(conflictRecord<typeof current>(error)).toEqual(current);
  });

  it('reads no conflict into other errors', async () => {
    fetchMock.mockResolvedValue(reply(409, { title: 'Conflict', status: 409, detail: 'Already issued' }));
    const error = await apiRequest('invoices/gifs/statements/1', { method: 'PATCH', body: {} }).catch((e: unknown) => e);
    expect(isConflict(error)).toBe(false);
    expect(conflictRecord(error)).toBeNull();
    expect(conflictRecord(new ApiError(412, 'no body'))).toBeNull();
    expect(isConflict(new Error('412'))).toBe(false);
  });

  it('makes exactly one attempt when the network fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(apiRequest('users')).rejects.toMatchObject({ status: 0 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
