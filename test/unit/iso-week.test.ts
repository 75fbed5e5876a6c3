import { describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates';
import { isIsoWeek, isoWeekDays, isoWeekMonday, isoWeekOf, shiftIsoWeek } from '../../src/shared/iso-week';

describe('ISO weeks', () => {
  it('puts a day in the week of its Thursday, across year ends', () => {
    expect(isoWeekOf('2026-11-23')).toBe('2026-W48');
    expect(isoWeekOf('2026-11-22')).toBe('2026-W47');
    expect(isoWeekOf('2026-12-31')).toBe('2026-W53');
    expect(isoWeekOf('2027-01-01')).toBe('2026-W53');
    expect(isoWeekOf('2027-01-03')).toBe('2026-W53');
    expect(isoWeekOf('2027-01-04')).toBe('2027-W01');
    expect(isoWeekOf('2024-12-30')).toBe('2025-W01');
    expect(isoWeekOf('2021-01-03')).toBe('2020-W53');
    expect(isoWeekOf('2026-01-01')).toBe('2026-W01');
    expect(isoWeekOf('2025-12-29')).toBe('2026-W01');
  });

  it('gives each week its Monday to Sunday', () => {
    expect(isoWeekDays('2026-W47')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(isoWeekDays('2026-W53')).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(isoWeekDays('2025-W01')).toEqual({ from: '2024-12-30', to: '2025-01-05' });
  });

  it('refuses weeks that do not exist', () => {
    for (const bad of ['2025-W53', '2026-W00', '2026-W54', '2026-W5', '2026W47', '2026-w47', '', '2026-W47 ', '0000-W01x']) {
      expect(isIsoWeek(bad), bad).toBe(false);
    }
    expect(isIsoWeek('2026-W53')).toBe(true);
    expect(isIsoWeek('2020-W53')).toBe(true);
    expect(isoWeekMonday('2025-W53')).toBeUndefined();
  });

  it('round-trips every day of several years and steps across year ends', () => {
    for (let day = '2019-12-23'; day < '2028-01-10'; day = addDays(day, 1)) {
      const week = isoWeekOf(day);
      const { from, to } = isoWeekDays(week);
      expect(from <= day && day <= to, `${day} in ${week}`).toBe(true);
    }
    expect(shiftIsoWeek('2026-W53', 1)).toBe('2027-W01');
    expect(shiftIsoWeek('2027-W01', -1)).toBe('2026-W53');
    expect(shiftIsoWeek('2025-W52', 1)).toBe('2026-W01');
  });
});
