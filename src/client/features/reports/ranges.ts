const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type RangeMode = 'week' | 'month';

/** The week (Monday to Sunday) or calendar month holding `anchor`, as YYYY-MM-DD bounds in UTC. */
export const rangeAround = (mode: RangeMode, anchor: string) => {
  const day = new Date(`${anchor}T00:00:00Z`);
  if (mode === 'week') {
    const monday = day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS;
    return { from: iso(monday), to: iso(monday + 6 * DAY_MS) };
  }
  const first = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1);
  const last = Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0);
  return { from: iso(first), to: iso(last) };
};

/** The same kind of range one step earlier (-1) or later (+1). */
export const shiftRange = (mode: RangeMode, from: string, step: -1 | 1) => {
  const day = new Date(`${from}T00:00:00Z`);
  if (mode === 'week') return rangeAround(mode, iso(day.getTime() + step * 7 * DAY_MS));
  return rangeAround(mode, iso(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + step, 1)));
};

export const daysBetween = (from: string, to: string) => {
  const days: string[] = [];
  for (let ms = Date.parse(from); ms <= Date.parse(to); ms += DAY_MS) days.push(iso(ms));
  return days;
};

export const today = () => iso(Date.now());
