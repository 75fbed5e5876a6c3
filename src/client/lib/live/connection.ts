import { API_BASE } from '../../../shared/constants';
import { LIVE_SESSION_ENDED, type ServerMessage } from '../../../shared/live';
import { subscribe } from 'valtio';
import { ApiError } from '../api';
import { authState } from '../auth-store';
import { callApi } from '../endpoints';
import { emitLive, liveState, setLiveSender } from './bus';
import { catchUp } from './catch-up';
import { reconnectDelay } from './reconnect-delay';

/** Answers that mean this API has no live channel (an upstream without one): stay quiet, as before. */
const NO_CHANNEL = new Set([404, 405, 501]);
/**
 * How long a socket closed for an ended session (4401) waits for a new token before asking for a
 * ticket: a password change made here ends the old token while its answer, with the new one, is
 * still on its way. Any other ended session is signed out by that ticket request's 401.
 */
const NEW_TOKEN_WAIT_MS = 3000;

/**
 * Keeps one socket open while signed in: a fresh ticket for each attempt, reconnecting after a
 * random 0–5 s and then growing, jittered delays (reconnect-delay.ts), or at once when the browser
 * is back online; after any gap it catches up from the last seq seen (catch-up.ts), so open views
 * re-read only what they missed.
 * Returns the stop function.
 */
export const startLive = () => {
  let stopped = false;
  let failures = 0;
  let everOpen = false;
  let socket: WebSocket | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Whether `timer` is a retry's wait, which coming back online cuts short. */
  let waiting = false;
  let unsubscribe = () => {};
  /** The newest change this tab has been told of: the hello's seq, then each change's. */
  let seq: number | null = null;

  const retry = () => {
    if (stopped) return;
    liveState.status = everOpen ? 'offline' : 'connecting';
    const delay = reconnectDelay(failures);
    failures += 1;
    waiting = true;
    timer = setTimeout(() => void open(), delay);
  };

  const open = async () => {
    waiting = false;
    if (stopped) return;
    let ticket: string;
    try {
      ({ ticket } = await callApi('POST /live/ticket'));
    } catch (error) {
      // 401 signs the person out through the API client; no channel means no live updates.
      if (error instanceof ApiError && (error.status === 401 || NO_CHANNEL.has(error.status))) {
        liveState.status = 'off';
        return;
      }
      retry();
      return;
    }
    if (stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}${API_BASE}/live?ticket=${encodeURIComponent(ticket)}`);
    socket = ws;
    ws.onmessage = (event) => {
      let message: ServerMessage;
      try {
        message = JSON.parse(String(event.data)) as ServerMessage;
      } catch {
        return;
      }
      if (message.type === 'hello') {
        const gap = everOpen;
        everOpen = true;
        failures = 0;
        liveState.status = 'online';
        setLiveSender((view) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(view)));
        if (gap) {
          void catchUp(seq).then((caughtUp) => {
            if (caughtUp !== null) seq = Math.max(seq ?? 0, caughtUp);
          });
        } else seq ??= message.seq;
      }
      if (message.type === 'changed') seq = Math.max(seq ?? 0, message.seq);
      emitLive(message);
    };
    ws.onclose = (event) => {
      if (socket === ws) socket = null;
      setLiveSender(null);
      liveState.presence = {};
      if (event.code === LIVE_SESSION_ENDED) {
        afterNewToken();
        return;
      }
      retry();
    };
  };

  /** Opens again as soon as the token changes, or after NEW_TOKEN_WAIT_MS with the one there is. */
  const afterNewToken = () => {
    failures = 0;
    const ended = authState.token;
    const reopen = () => {
      unsubscribe();
      clearTimeout(timer);
      void open();
    };
    unsubscribe = subscribe(authState, () => {
      if (authState.token !== ended) reopen();
    });
    timer = setTimeout(reopen, NEW_TOKEN_WAIT_MS);
  };

  /** Back online while waiting to retry: no reason to wait longer, and the jitter is for a whole team at once. */
  const onOnline = () => {
    if (stopped || !waiting) return;
    clearTimeout(timer);
    failures = 0;
    void open();
  };
  window.addEventListener('online', onOnline);

  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
    window.removeEventListener('online', onOnline);
    socket?.close(1000, 'Signed out');
    setLiveSender(null);
    liveState.status = 'off';
  };
};
