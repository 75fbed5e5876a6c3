import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REQUEST_TIMEOUT_MS } from '../../src/shared/constants';
import { exportAudit } from '../../src/client/features/audit/api';
import { signIn } from '../../src/client/lib/auth-store';
import { CUT_OFF_MESSAGE, apiDownload } from '../../src/client/lib/download';

const encoder = new TextEncoder();
const CSV_HEAD = 'id,at,actor_id,actor,action,entity,entity_id,changes,request_id\r\n1,2026-01-01T00:00:00.000Z,,,login,session,,{},\r\n';

/** An answer whose body sends `parts` and then, if `failure` is given, breaks off with it. */
const streamed = (parts: string[], failure?: Error) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(encoder.encode(part));
        if (failure) controller.error(failure);
        else controller.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/csv' } },
  );

describe('apiDownload', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const createObjectURL = vi.fn(() => 'blob:saved');

  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    signIn({ token: 'tok', firstName: 'A', surname: 'B', email: 'a@b.c', userId: 7, role: 'admin' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
    createObjectURL.mockClear();
  });

  it('a body that breaks off is an error, and nothing is saved', async () => {
    fetchMock.mockResolvedValue(streamed([CSV_HEAD], new TypeError('network error')));
    await expect(apiDownload('settings/backups/download', 'backup.json')).rejects.toMatchObject({ status: 0, message: CUT_OFF_MESSAGE });
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it('an audit export without its end line was cut off: an error, not saved', async () => {
    fetchMock.mockResolvedValue(streamed([CSV_HEAD]));
    await expect(exportAudit({})).rejects.toMatchObject({ message: CUT_OFF_MESSAGE });
    fetchMock.mockResolvedValue(streamed([CSV_HEAD, '# end of export: 1']));
    await expect(exportAudit({})).rejects.toMatchObject({ message: CUT_OFF_MESSAGE });
    expect(createObjectURL).not.toHaveBeenCalled();
  });

  it('saves an audit export that ends with its end line', async () => {
    fetchMock.mockResolvedValue(streamed([CSV_HEAD, '# end of export: 1 entry\r\n']));
    const blob = await exportAudit({ from: '2026-01-01' });
    expect(await blob.text()).toMatch(/# end of export: 1 entry\r\n$/);
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/audit.csv?from=2026-01-01');
  });

  it('reads a body that takes longer than the 10 s the answer has to begin', async () => {
    vi.useFakeTimers();
    // happy-dom's AbortSignal.timeout runs on its window's own timers, which fake timers do not
    // reach; this one behaves as the browser's does, on the faked clock.
    vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new DOMException('signal timed out', 'TimeoutError')), ms);
      return controller.signal;
    });
    try {
      // As a browser does, the body breaks off when the request's signal aborts.
      fetchMock.mockImplementation(async (_, init) => {
        let send: (text: string) => void = () => undefined;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(encoder.encode(CSV_HEAD));
            init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
            send = (text) => {
              controller.enqueue(encoder.encode(text));
              controller.close();
            };
          },
        });
        setTimeout(() => send('# end of export: 1 entry\r\n'), REQUEST_TIMEOUT_MS * 3);
        return new Response(body, { status: 200 });
      });
      let settled: unknown = 'pending';
      const download = exportAudit({}).then(
        (blob) => (settled = blob),
        (error: unknown) => (settled = error),
      );
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS * 3);
      await download;
      expect(settled).toBeInstanceOf(Blob);
    } finally {
      vi.useRealTimers();
      vi.restoreAllMocks();
    }
  });
});
