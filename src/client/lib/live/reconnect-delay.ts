/** The window the first reconnect after a drop is spread over. */
export const FIRST_RECONNECT_SPREAD_MS = 5000;
/** The longest wait between two attempts. */
export const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * How long to wait before the next attempt to open the live socket, after `failures` attempts
 * that failed since the last one that opened. A deploy or restart of the hub drops every socket
 * of the team at once, so the first wait is anywhere from 0 to 5 s and the reconnects arrive spread
 * over those seconds rather than together; each further failure doubles the window (5–10 s,
 * 10–20 s, then 15–30 s), still jittered. `random` is a number in [0, 1).
 */
export const reconnectDelay = (failures: number, random: number = Math.random()) =>
  failures <= 0
    ? random * FIRST_RECONNECT_SPREAD_MS
    : Math.min(MAX_RECONNECT_DELAY_MS, FIRST_RECONNECT_SPREAD_MS * 2 ** failures) * (0.5 + random / 2);
