import { afterEach, describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  DAY_MS,
  daysBetween,
  daysFrom,
  isRealDate,
  localDay,
  monthBounds,
  parseDay,
  quarterBounds,
  utcDay,
  weekBounds,
  weekStart,
} from '../../src/shared/dates';
import { ticketReportQuerySchema } from '../../src/shared/schemas/reports';
import { RANGE_PRESETS, rangeErrors } from '../../src/client/features/reports/report-range';
import { rangeAround, shiftRange } from '../../src/client/features/reports/ranges';

const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

describe('plain days', () => {
  it('parses whole real days only', () => {
    expect(parseDay('2026-11-23')).toBe('2026-11-23');
    expect(parseDay('2024-02-29')).toBe('2024-02-29');
    for (const bad of ['2026-02-29', '2026-13-01', '2026-11-31', '2026-1-23', '0202-10-3', '', '20261123', '2026-11-23T00:00:00Z', null, undefined]) {
      expect(parseDay(bad)).toBeUndefined();
    }
    expect(isRealDate('2026-02-30')).toBe(false);
  });

  it('adds days and months across month, year and leap-day edges', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2026-03-15', -3)).toBe('2025-12-15');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
    expect(daysFrom('2026-11-23', '2026-11-30')).toBe(7);
    expect(daysFrom('2026-03-01', '2026-02-28')).toBe(-1);
    expect(DAY_MS).toBe(24 * 60 * 60 * 1000);
  });

  it('starts weeks on Monday', () => {
    expect(weekStart('2026-11-23')).toBe('2026-11-23'); // a Monday
    expect(weekStart('2026-11-29')).toBe('2026-11-23'); // its Sunday
    expect(weekStart('2026-11-22')).toBe('2026-11-16'); // the Sunday before
    expect(weekBounds('2027-01-01')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
  });

  it('bounds months and quarters', () => {
    expect(monthBounds('2024-02-10')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(monthBounds('2026-12-31')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(quarterBounds('2026-11-23')).toEqual({ from: '2026-10-01', to: '2026-12-31' });
    expect(quarterBounds('2026-01-01')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
  });

  it('lists every day of a range, both ends included, through a daylight-saving change', () => {
    process.env.TZ = 'Europe/London';
    expect(daysBetween('2026-03-28', '2026-03-30')).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);
    expect(daysBetween('2026-11-23', '2026-11-22')).toEqual([]);
  });
});

describe('today', () => {
  // 20:00 UTC on Sunday 22 November is already Monday 23 November, 9 am, in Auckland.
  const instant = new Date('2026-11-22T20:00:00Z');

  it('is the local calendar day, not the UTC one', () => {
    process.env.TZ = 'Pacific/Auckland';
    expect(localDay(instant)).toBe('2026-11-23');
    expect(utcDay(instant)).toBe('2026-11-22');
    process.env.TZ = 'America/Los_Angeles';
    expect(localDay(new Date('2026-11-24T05:00:00Z'))).toBe('2026-11-23');
  });
});

describe('timesheet periods', () => {
  it('moves by weeks and months from the period shown', () => {
    expect(rangeAround('week', '2026-11-25')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(shiftRange('week', '2026-11-23', -1)).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(shiftRange('month', '2026-01-01', -1)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(shiftRange('month', '2026-01-31', 1)).toEqual({ from: '2026-02-01', to: '2026-02-28' });
  });
});

describe('ticket report ranges', () => {
  it('puts the shared schema’s messages on the field they concern', () => {
    expect(rangeErrors({ from: '2026-01-01', to: '2026-12-31' })).toEqual({});
    expect(rangeErrors({ from: '', to: '2026-12-31' })).toEqual({ from: 'Required' });
    expect(rangeErrors({ from: '2026-11-01', to: '0202-10-31' })).toEqual({ to: 'Must not be before from' });
    expect(rangeErrors({ from: '2025-01-01', to: '2026-01-01' })).toEqual({});
    expect(rangeErrors({ from: '2025-01-01', to: '2026-01-02' })).toEqual({ to: 'The range must be at most 366 days' });
    expect(rangeErrors({ from: '2026-02-30', to: '2026-03-01' })).toEqual({ from: 'Must be a real date' });
  });

  it('offers presets the report accepts', () => {
    const ranges = RANGE_PRESETS.map((preset) => [preset.label, preset.range('2026-11-23')]);
    expect(ranges).toEqual([
      ['Last 7 days', { from: '2026-11-17', to: '2026-11-23' }],
      ['This month', { from: '2026-11-01', to: '2026-11-23' }],
      ['Last quarter', { from: '2026-07-01', to: '2026-09-30' }],
    ]);
    for (const [, range] of ranges) expect(ticketReportQuerySchema.isValidSync(range)).toBe(true);
    expect(RANGE_PRESETS[2]?.range('2026-02-10')).toEqual({ from: '2025-10-01', to: '2025-12-31' });
  });
});
