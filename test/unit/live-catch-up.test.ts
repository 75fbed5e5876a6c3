import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangedEvent, LiveChanges } from '../../src/shared/live';
import { onLive, type LiveMessage } from '../../src/client/lib/live/bus';
import { startLive } from '../../src/client/lib/live/connection';
import { callApi } from '../../src/client/lib/endpoints';
import { FakeSocket } from './fake-socket';

vi.mock('../../src/client/lib/endpoints', () => ({ callApi: vi.fn() }));

const change = (id: number, seq: number): ChangedEvent => ({
  type: 'changed', entity: 'ticket', id, version: 2, action: 'update', actorId: 2, actorName: 'Sam Smith', at: '2026-11-26T10:00:00Z', seq,
});

const calls = vi.mocked(callApi);
let changesAnswer: () => Promise<LiveChanges>;
let heard: LiveMessage[] = [];
let stopHearing = () => {};

/** Opens, says hello at `seq`, drops the socket (as a deploy does) and comes back, saying hello at `seqAfter`. */
const dropAndReturn = async (before: (socket: FakeSocket) => void, seqAfter: number) => {
  const stop = startLive();
  await vi.advanceTimersByTimeAsync(0);
  const first = FakeSocket.made[0];
  if (!first) throw new Error('no socket');
  first.receive({ type: 'hello', userId: 1, seq: 10 });
  before(first);
  first.onclose?.({ code: 1006 });
  await vi.advanceTimersByTimeAsync(0);
  FakeSocket.made[1]?.receive({ type: 'hello', userId: 1, seq: seqAfter });
  await vi.advanceTimersByTimeAsync(0);
  return stop;
};

const changesAsked = () => calls.mock.calls.filter(([key]) => key === 'GET /live/changes').map(([, args]) => args);

describe('startLive: catching up after a gap', () => {
  beforeEach(() => {
    FakeSocket.made = [];
    heard = [];
    stopHearing = onLive((message) => heard.push(message));
    vi.useFakeTimers();
    vi.stubGlobal('WebSocket', FakeSocket);
    // No wait before a reconnect: the test drops and returns at once.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    changesAnswer = () => Promise.resolve({ seq: 30, reload: false, changes: [change(5, 25), change(6, 30)] });
    calls.mockImplementation(((key: string) => (key === 'GET /live/changes' ? changesAnswer() : Promise.resolve({ ticket: 'a-ticket', expiresAt: '' }))) as typeof callApi);
  });
  afterEach(() => {
    stopHearing();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    calls.mockReset();
  });

  it('asks for the changes after the last seq it was told of and passes them on, with no resync', async () => {
    const stop = await dropAndReturn((socket) => socket.receive(change(4, 12)), 40);
    expect(changesAsked()).toEqual([{ query: { after: 12 } }]);
    expect(heard.filter((message) => message.type === 'changed').map((message) => message.type === 'changed' && message.seq)).toEqual([12, 25, 30]);
    expect(heard.some((message) => message.type === 'resync')).toBe(false);
    // Then the bell re-reads its notifications, which have no seq to catch up by.
    expect(heard.at(-1)).toEqual({ type: 'caughtUp' });
    stop();
  });

  it('starts from the hello’s seq when no change came before the gap, and carries on from the answer’s', async () => {
    const stop = await dropAndReturn(() => {}, 40);
    expect(changesAsked()).toEqual([{ query: { after: 10 } }]);
    FakeSocket.made[1]?.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(FakeSocket.made.length * 60_000);
    FakeSocket.made.at(-1)?.receive({ type: 'hello', userId: 1, seq: 50 });
    await vi.advanceTimersByTimeAsync(0);
    expect(changesAsked().at(-1)).toEqual({ query: { after: 30 } });
    stop();
  });

  it('re-reads everything when told to reload, or when the catch-up fails', async () => {
    changesAnswer = () => Promise.resolve({ seq: 2000, reload: true, changes: [] });
    let stop = await dropAndReturn(() => {}, 2000);
    expect(heard.filter((message) => message.type === 'resync')).toHaveLength(1);
    expect(heard.some((message) => message.type === 'changed')).toBe(false);
    stop();

    FakeSocket.made = [];
    heard = [];
    changesAnswer = () => Promise.reject(new Error('offline'));
    stop = await dropAndReturn(() => {}, 20);
    expect(heard.filter((message) => message.type === 'resync')).toHaveLength(1);
    stop();
  });

  it('reconnects at once when the browser is back online, not after the backoff', async () => {
    vi.mocked(Math.random).mockReturnValue(0.99);
    const stop = startLive();
    await vi.advanceTimersByTimeAsync(0);
    FakeSocket.made[0]?.receive({ type: 'hello', userId: 1, seq: 10 });
    FakeSocket.made[0]?.onclose?.({ code: 1006 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.made).toHaveLength(1);
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.made).toHaveLength(2);
    // Online again while a socket is open or opening starts no other.
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.made).toHaveLength(2);
    stop();
  });
});
