import { describe, expect, it } from 'vitest';
import { FIRST_RECONNECT_SPREAD_MS, MAX_RECONNECT_DELAY_MS, reconnectDelay } from '../../src/client/lib/live/reconnect-delay';

// Just below 1: Math.random() never returns 1 itself.
const HIGHEST = 1 - Number.EPSILON;

describe('reconnectDelay: spread after a drop, then back off', () => {
  it('spreads the first reconnect over 0–5 s, so a whole team dropped at once does not come back together', () => {
    expect(reconnectDelay(0, 0)).toBe(0);
    expect(reconnectDelay(0, 0.5)).toBe(2500);
    expect(reconnectDelay(0, HIGHEST)).toBeLessThan(FIRST_RECONNECT_SPREAD_MS);
    expect(reconnectDelay(0, HIGHEST)).toBeGreaterThan(4999);
    // Evenly: a tenth of the random range is a tenth of the window.
    expect(reconnectDelay(0, 0.1)).toBeCloseTo(500);
  });

  it('doubles the window with each further failure, jittered within its upper half', () => {
    expect([reconnectDelay(1, 0), reconnectDelay(1, HIGHEST)].map(Math.round)).toEqual([5000, 10_000]);
    expect([reconnectDelay(2, 0), reconnectDelay(2, HIGHEST)].map(Math.round)).toEqual([10_000, 20_000]);
  });

  it('never waits longer than 30 s, however many failures', () => {
    for (const failures of [3, 4, 10, 50, 1000]) {
      expect(reconnectDelay(failures, HIGHEST)).toBeLessThanOrEqual(MAX_RECONNECT_DELAY_MS);
      expect(reconnectDelay(failures, 0)).toBe(MAX_RECONNECT_DELAY_MS / 2);
    }
  });

  it('uses Math.random when no number is given, staying inside the first window', () => {
    for (let i = 0; i < 100; i += 1) {
      const delay = reconnectDelay(0);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(FIRST_RECONNECT_SPREAD_MS);
    }
  });
});
