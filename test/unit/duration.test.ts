import { describe, expect, it } from 'vitest';
import { DURATION_FORMAT, DURATION_MAX, DURATION_MIN, DURATION_WHOLE, parseDuration, readDuration } from '../../src/shared/duration';
import { timeEntrySchema } from '../../src/shared/schemas/tickets';

describe('parseDuration', () => {
  it.each([
    ['90', 90],
    [' 90 ', 90],
    ['90m', 90],
    ['90 min', 90],
    ['45 min', 45],
    ['45 minutes', 45],
    ['1:30', 90],
    ['0:45', 45],
    ['24:00', 1440],
    ['1h 30m', 90],
    ['1H 30M', 90],
    ['1h30', 90],
    ['1h30m', 90],
    ['1h 30', 90],
    ['1 h 30 min', 90],
    ['1 hour 30 minutes', 90],
    ['1.5h', 90],
    ['1,5h', 90],
    ['1.5 hours', 90],
    ['.5h', 30],
    ['1.1h', 66],
    ['0.25h', 15],
    ['2h', 120],
    ['2 hrs', 120],
    ['24h', 1440],
    ['1440', 1440],
    ['1', 1],
  ])('reads %j as %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toEqual({ minutes });
  });

  it.each([
    ['', DURATION_FORMAT],
    ['   ', DURATION_FORMAT],
    ['abc', DURATION_FORMAT],
    ['130abc', DURATION_FORMAT],
    ['1:3', DURATION_FORMAT],
    ['1:60', DURATION_FORMAT],
    ['1:30:00', DURATION_FORMAT],
    ['1h 90m', DURATION_FORMAT],
    ['1.5h 10m', DURATION_FORMAT],
    ['1d', DURATION_FORMAT],
    ['h', DURATION_FORMAT],
    ['1 30', DURATION_FORMAT],
    ['1e3', DURATION_FORMAT],
    ['0x10', DURATION_FORMAT],
    ['Infinity', DURATION_FORMAT],
    ['99999999999999999999', DURATION_FORMAT],
    ['0', DURATION_MIN],
    ['0h', DURATION_MIN],
    ['0:00', DURATION_MIN],
    ['-30', DURATION_MIN],
    ['-1h', DURATION_MIN],
    ['1441', DURATION_MAX],
    ['24:01', DURATION_MAX],
    ['25h', DURATION_MAX],
    ['24h 1m', DURATION_MAX],
    ['90.5', DURATION_WHOLE],
    ['1.5', DURATION_WHOLE],
    ['1.51h', DURATION_WHOLE],
    ['0.01h', DURATION_WHOLE],
  ])('refuses %j: %s', (text, outcome) => {
    expect(parseDuration(text)).toEqual({ error: outcome });
  });

  it('never reads "1h 30m" or "1:30" as 130', () => {
    for (const text of ['1h 30m', '1:30', '1h30', '1 h 30 min']) expect(readDuration(text)).toBe(90);
  });

  it('leaves empty text empty, so the form says Required', () => {
    expect(readDuration('')).toBeUndefined();
  });
});

describe('the time entry schema', () => {
  const strict = (minutes: unknown) => timeEntrySchema.validate({ workDate: '2026-01-05', minutes }, { strict: true }).then(() => 'valid', (error: Error) => error.message);

  it('refuses a duration sent as text, naming the number to send', async () => {
    expect(await strict('1h 30m')).toBe('Must be a number of minutes: 90 for "1h 30m"');
    expect(await strict('130abc')).toBe('Must be a number of minutes, such as 90');
    expect(await strict('90')).toBe('Must be a number of minutes: 90 for "90"');
    expect(await strict(90)).toBe('valid');
  });

  it("says which forms the field takes when the form's text matched none", async () => {
    expect(await strict(Number.NaN)).toBe(DURATION_FORMAT);
    expect(await strict(1.5)).toBe(DURATION_WHOLE);
  });
});
