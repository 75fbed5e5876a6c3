import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLive } from '../../src/client/lib/live/connection';
import { FIRST_RECONNECT_SPREAD_MS } from '../../src/client/lib/live/reconnect-delay';
import { FakeSocket } from './fake-socket';

vi.mock('../../src/client/lib/endpoints', () => ({ callApi: vi.fn(() => Promise.resolve({ ticket: 'a-ticket', expiresAt: '' })) }));

describe('startLive: reconnecting after the socket drops', () => {
  beforeEach(() => {
    FakeSocket.made = [];
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('waits a random part of the first 5 s before the first reconnect, not a second at most', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.9);
    const stop = startLive();
    await vi.advanceTimersByTimeAsync(0);
    const [first] = FakeSocket.made;
    first?.onmessage?.({ data: JSON.stringify({ type: 'hello', userId: 1 }) });
    // As a deploy drops it: an abnormal close, not a session that ended.
    first?.onclose?.({ code: 1006 });

    const drawn = 0.9 * FIRST_RECONNECT_SPREAD_MS;
    await vi.advanceTimersByTimeAsync(drawn - 1);
    expect(FakeSocket.made).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.made).toHaveLength(2);
    expect(FakeSocket.made[1]?.url).toMatch(/\/live\?ticket=a-ticket$/);
    stop();
  });

  it('reconnects at once when the random draw is 0, and backs off after a failed attempt', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const stop = startLive();
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.made[0]?.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.made).toHaveLength(2);
    // The second attempt never said hello: the next wait is at least 5 s.
    FakeSocket.made[1]?.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(FIRST_RECONNECT_SPREAD_MS - 1);
    expect(FakeSocket.made).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.made).toHaveLength(3);
    stop();
  });
});
