import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDayRange, formatHours, formatMonth, formatWeekday, formatWeekdayName } from '../../src/client/lib/format';

describe('dates', () => {
  it('writes a day in the locale with the month abbreviated: 23 Nov 2026 in en-GB', () => {
    expect(formatDate('2026-11-23', 'en-GB')).toBe('23 Nov 2026');
    expect(formatDate('2026-11-23', 'en-US')).toBe('Nov 23, 2026');
    expect(formatDate('2026-11-23', 'de-DE')).toBe('23. Nov. 2026');
  });

  it('never moves a plain calendar day to the day before, whatever the time zone', () => {
    expect(formatDate('2026-01-01', 'en-GB')).toBe('1 Jan 2026');
    expect(formatDate('2026-12-31', 'en-GB')).toBe('31 Dec 2026');
  });

  it('writes an instant as the same date, and with the time', () => {
    const instant = new Date(2026, 10, 23, 14, 5).toISOString();
    expect(formatDate(instant, 'en-GB')).toBe('23 Nov 2026');
    expect(formatDateTime(instant, 'en-GB')).toBe('23 Nov 2026, 14:05');
  });

  it('writes a dash for no date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDateTime(undefined)).toBe('—');
  });

  it('spells a month out: November 2026', () => {
    expect(formatMonth('2026-11', 'en-GB')).toBe('November 2026');
    expect(formatMonth('2026-01', 'en-US')).toBe('January 2026');
  });

  it('labels a day of a week as "Mon 23" and a range as two dates', () => {
    expect(formatWeekday('2026-11-23', 'en-GB')).toBe('Mon 23');
    expect(formatWeekdayName('2026-11-29', 'en-GB')).toBe('Sun');
    expect(formatDayRange({ from: '2026-11-23', to: '2026-11-29' }, 'en-GB')).toBe('23 Nov 2026 to 29 Nov 2026');
  });
});

describe('formatHours', () => {
  it.each([
    [0.5, '0.5 h'],
    [5, '5 h'],
    [36.46, '36.5 h'],
    [48, '48 h'],
    [48.6, '2 d 1 h'],
    [76, '3 d 4 h'],
    [72, '3 d'],
    [75.6, '3 d 4 h'],
    [1000, '41 d 16 h'],
  ])('writes %d hours as %j', (hours, text) => {
    expect(formatHours(hours, 'en-GB')).toBe(text);
  });
});
