import { describe, expect, it } from 'vitest';
import { addBusinessMinutes, businessSecondsBetween, isBusinessTime, isTimeZone, NoBusinessTimeError, type BusinessCalendar } from '../../src/shared/business-time';
import type { CalendarHours, IsoWeekday } from '../../src/shared/sla';
import { zonedInstant } from '../../src/shared/zoned-time';

const weekdays = (from: string, to: string): CalendarHours[] => ([1, 2, 3, 4, 5] as IsoWeekday[]).map((day) => ({ day, from, to }));
const calendar = (timeZone: string, hours: CalendarHours[], holidays: string[] = []): BusinessCalendar => ({ timeZone, hours, holidays });
const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();
const HOUR = 3600;

describe('zonedInstant', () => {
  it('reads a wall time the clocks show twice as its first showing, and a skipped one as the jump', () => {
    // London goes back at 02:00 BST on 25 Oct 2026 (01:00 UTC): 01:30 is shown at 00:30 and 01:30 UTC.
    expect(new Date(zonedInstant('Europe/London', { year: 2026, month: 10, day: 25 }, 90)).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // London goes forward at 01:00 GMT on 29 Mar 2026: 01:30 does not exist; the clocks jump at 01:00 UTC.
    expect(new Date(zonedInstant('Europe/London', { year: 2026, month: 3, day: 29 }, 90)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(new Date(zonedInstant('Australia/Sydney', { year: 2026, month: 7, day: 1 }, 9 * 60)).toISOString()).toBe('2026-06-30T23:00:00.000Z');
  });
});

describe('addBusinessMinutes', () => {
  const office = calendar('Europe/London', weekdays('09:00', '17:00'));

  it('counts inside working hours only, across nights and weekends', () => {
    // Friday 16:00 BST + 2 h: one hour on Friday, one on Monday.
    expect(iso(addBusinessMinutes(office, at('2026-06-05T15:00:00Z'), 120))).toBe('2026-06-08T09:00:00.000Z');
    // Saturday: the clock starts on Monday at 09:00.
    expect(iso(addBusinessMinutes(office, at('2026-06-06T12:00:00Z'), 30))).toBe('2026-06-08T08:30:00.000Z');
    expect(iso(addBusinessMinutes(office, at('2026-06-08T08:00:00Z'), 0))).toBe('2026-06-08T08:00:00.000Z');
  });

  it('follows the calendar’s zone across the change to summer time in the north', () => {
    // Friday 27 Mar 16:00 GMT + 2 h → Monday 30 Mar 10:00 BST (09:00 UTC): the wall clock, not UTC.
    expect(iso(addBusinessMinutes(office, at('2026-03-27T16:00:00Z'), 120))).toBe('2026-03-30T09:00:00.000Z');
    // And back to winter time: Friday 23 Oct 16:00 BST + 2 h → Monday 26 Oct 10:00 GMT.
    expect(iso(addBusinessMinutes(office, at('2026-10-23T15:00:00Z'), 120))).toBe('2026-10-26T10:00:00.000Z');
  });

  it('follows the calendar’s zone across both changes in the south', () => {
    const sydney = calendar('Australia/Sydney', weekdays('09:00', '17:00'));
    // Sydney leaves summer time on Sunday 5 Apr 2026: Friday 16:00 AEDT (05:00 UTC) + 2 h → Monday 10:00 AEST (00:00 UTC).
    expect(iso(addBusinessMinutes(sydney, at('2026-04-03T05:00:00Z'), 120))).toBe('2026-04-06T00:00:00.000Z');
    // And starts it on Sunday 4 Oct 2026: Friday 16:00 AEST (06:00 UTC) + 2 h → Monday 10:00 AEDT (23:00 UTC Sunday).
    expect(iso(addBusinessMinutes(sydney, at('2026-10-02T06:00:00Z'), 120))).toBe('2026-10-04T23:00:00.000Z');
  });

  it('skips holidays in the calendar’s zone', () => {
    const withHoliday = calendar('Europe/London', weekdays('09:00', '17:00'), ['2026-06-08']);
    expect(iso(addBusinessMinutes(withHoliday, at('2026-06-05T15:00:00Z'), 120))).toBe('2026-06-09T09:00:00.000Z');
  });

  it('runs a night shift past midnight, belonging to the day it starts on', () => {
    const nights = calendar('UTC', [{ day: 5, from: '22:00', to: '06:00' }]);
    // Friday 22:00 + 7 h → Saturday 05:00.
    expect(iso(addBusinessMinutes(nights, at('2026-06-05T20:00:00Z'), 7 * 60))).toBe('2026-06-06T05:00:00.000Z');
    // Started on Saturday 01:00, inside Friday's shift: 5 h of it left, the rest the next Friday.
    expect(iso(addBusinessMinutes(nights, at('2026-06-06T01:00:00Z'), 6 * 60))).toBe('2026-06-12T23:00:00.000Z');
    // A holiday on the Friday takes the whole night with it.
    const holidayNight = calendar('UTC', nights.hours, ['2026-06-05']);
    expect(iso(addBusinessMinutes(holidayNight, at('2026-06-05T20:00:00Z'), 60))).toBe('2026-06-12T23:00:00.000Z');
  });

  it('counts several spans a day, and overlapping ones once', () => {
    const split = calendar('UTC', [
      { day: 1, from: '09:00', to: '12:00' },
      { day: 1, from: '11:00', to: '12:30' },
      { day: 1, from: '13:00', to: '17:30' },
    ]);
    // 09:00–12:30 is 3.5 h; then 13:00 + 1 h.
    expect(iso(addBusinessMinutes(split, at('2026-06-08T09:00:00Z'), 4.5 * 60))).toBe('2026-06-08T14:00:00.000Z');
    expect(businessSecondsBetween(split, at('2026-06-08T00:00:00Z'), at('2026-06-09T00:00:00Z'))).toBe(8 * HOUR);
  });

  it('counts around the clock with no hours, holidays and all', () => {
    const always = calendar('Europe/London', [], ['2026-06-06']);
    expect(iso(addBusinessMinutes(always, at('2026-06-05T23:00:00Z'), 120))).toBe('2026-06-06T01:00:00.000Z');
    expect(businessSecondsBetween(always, at('2026-06-05T23:00:00Z'), at('2026-06-06T01:00:00Z'))).toBe(2 * HOUR);
    expect(isBusinessTime(always, at('2026-06-06T03:00:00Z'))).toBe(true);
  });

  it('reaches far targets day by day', () => {
    // 10,000 minutes of 8-hour days: 20 days (four weeks from Monday 1 June) and 6 h 40 min on Monday 29th.
    expect(iso(addBusinessMinutes(calendar('UTC', weekdays('09:00', '17:00')), at('2026-06-01T09:00:00Z'), 10_000))).toBe('2026-06-29T15:40:00.000Z');
  });

  it('refuses a target that is no number and a zone Intl does not know, rather than searching', () => {
    expect(() => addBusinessMinutes(office, at('2026-06-08T09:00:00Z'), Number.NaN)).toThrow(RangeError);
    expect(() => addBusinessMinutes(office, at('2026-06-08T09:00:00Z'), Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => addBusinessMinutes(calendar('Mars/Olympus', weekdays('09:00', '17:00')), at('2026-06-08T09:00:00Z'), 60)).toThrow(RangeError);
    expect(() => businessSecondsBetween(calendar('Mars/Olympus', weekdays('09:00', '17:00')), at('2026-06-08T09:00:00Z'), at('2026-06-09T09:00:00Z'))).toThrow(RangeError);
  });

  it('refuses a calendar with hours but no working day, instead of searching for ever', () => {
    const days: string[] = [];
    for (let time = Date.UTC(2026, 0, 1); time < Date.UTC(2030, 0, 1); time += 86_400_000) days.push(new Date(time).toISOString().slice(0, 10));
    expect(() => addBusinessMinutes(calendar('UTC', weekdays('09:00', '17:00'), days), at('2026-01-01T00:00:00Z'), 60)).toThrow(NoBusinessTimeError);
  });
});

describe('businessSecondsBetween', () => {
  it('counts the real hours of a span on the nights the clocks change', () => {
    const nights = calendar('Europe/London', [{ day: 7, from: '01:00', to: '03:00' }]);
    // Going back on 25 Oct: 01:00 BST to 03:00 GMT is three real hours.
    expect(businessSecondsBetween(nights, at('2026-10-24T00:00:00Z'), at('2026-10-26T00:00:00Z'))).toBe(3 * HOUR);
    // Going forward on 29 Mar: 01:00 GMT to 03:00 BST is one.
    expect(businessSecondsBetween(nights, at('2026-03-28T00:00:00Z'), at('2026-03-30T00:00:00Z'))).toBe(1 * HOUR);
  });

  it('is 0 for an empty or backwards range and counts partial spans', () => {
    const office = calendar('UTC', weekdays('09:00', '17:00'));
    expect(businessSecondsBetween(office, at('2026-06-08T12:00:00Z'), at('2026-06-08T12:00:00Z'))).toBe(0);
    expect(businessSecondsBetween(office, at('2026-06-08T13:00:00Z'), at('2026-06-08T12:00:00Z'))).toBe(0);
    expect(businessSecondsBetween(office, at('2026-06-08T16:30:00Z'), at('2026-06-09T09:15:00Z'))).toBe(45 * 60);
    expect(businessSecondsBetween(office, at('2026-06-06T00:00:00Z'), at('2026-06-07T23:59:59Z'))).toBe(0);
  });

  it('is the inverse of addBusinessMinutes over many starts and targets', () => {
    const zones = ['Europe/London', 'Australia/Sydney', 'America/New_York', 'UTC'];
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    for (let sample = 0; sample < 200; sample++) {
      const zone = zones[sample % zones.length] ?? 'UTC';
      const cal = calendar(zone, [...weekdays('08:30', '12:00'), ...weekdays('13:00', '17:45'), { day: 6, from: '22:00', to: '02:00' }], ['2026-03-30', '2026-10-05']);
      const start = new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 360) * 86_400_000 + Math.floor(random() * 1440) * 60_000);
      const minutes = Math.floor(random() * 5000);
      const due = addBusinessMinutes(cal, start, minutes);
      expect(businessSecondsBetween(cal, start, due), `${zone} ${start.toISOString()} + ${minutes}`).toBe(minutes * 60);
    }
  });
});

describe('isBusinessTime and isTimeZone', () => {
  it('tells working time from the rest', () => {
    const office = calendar('America/New_York', weekdays('09:00', '17:00'), ['2026-07-03']);
    expect(isBusinessTime(office, at('2026-07-02T14:00:00Z'))).toBe(true);
    expect(isBusinessTime(office, at('2026-07-02T22:00:00Z'))).toBe(false);
    expect(isBusinessTime(office, at('2026-07-03T14:00:00Z'))).toBe(false);
  });

  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('x'.repeat(200))).toBe(false);
  });
});
