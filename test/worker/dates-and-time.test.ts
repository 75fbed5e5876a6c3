import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectConflict, expectError, signedIn } from './support';

// Security review (docs/decisions.md#the-security-review), finding 12: dueAt is a real date or time, work dates lie between 2000-01-01 and a
// year ahead, and one person's time on one day adds up to at most 24 hours, even when sent at once.

let token: string;
let userId: number;
let ticketId: number;
beforeAll(async () => {
  const session = await signedIn();
  token = session.token;
  userId = session.user.id;
  ticketId = ((await (await api('tickets', { method: 'POST', token, json: { title: 'Time and dates' } })).json()) as { id: number }).id;
});

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
const logTime = (workDate: string, minutes: number) => api(`tickets/${ticketId}/time-entries`, { method: 'POST', token, json: { workDate, minutes } });
const minutesOn = async (workDate: string) =>
  (await env.DB.prepare('SELECT coalesce(sum(minutes), 0) AS m FROM time_entries WHERE user_id = ?1 AND work_date = ?2').bind(userId, workDate).first<number>('m')) ?? 0;

describe('dueAt', () => {
  it.each(['2026-01-01T99:99:99.999Z', '2026-01-01T24:00:00Z', '2026-01-01T23:60Z', '2026-01-01T23:59:60Z', '2026-02-30T10:00:00Z', '2026-13-01', '2026-1-1'])(
    'refuses %s',
    async (dueAt) => {
      const error = await expectError(await api('tickets', { method: 'POST', token, json: { title: 'Due', dueAt } }), 400);
      expect(error.errors?.dueAt).toBeDefined();
      await expectError(await api(`tickets/${ticketId}`, { method: 'PATCH', token, json: { dueAt } }), 400);
    },
  );

  it.each(['2026-01-01', '2026-01-01T23:59:59.999Z', '2026-01-01T00:00Z', '2028-02-29T12:30:00Z'])('accepts %s', async (dueAt) => {
    expect((await api('tickets', { method: 'POST', token, json: { title: 'Due', dueAt } })).status).toBe(201);
  });
});

describe('work dates', () => {
  it.each([
    ['year 1', '0001-01-01'],
    ['the day before 2000', '1999-12-31'],
    ['a year and a day ahead', isoDay(367)],
    ['far ahead', '9999-12-31'],
  ])('refuses %s', async (_, workDate) => {
    const error = await expectError(await logTime(workDate, 30), 400);
    expect(error.errors?.workDate?.[0]).toMatch(/between 2000-01-01 and/);
  });

  it.each([
    ['2000-01-01', '2000-01-01'],
    ['today', isoDay(0)],
    ['half a year ahead', isoDay(180)],
  ])('accepts %s', async (_, workDate) => {
    expect((await logTime(workDate, 1)).status).toBe(201);
  });
});

describe('minutes', () => {
  it('refuses more than 1,440 minutes in one entry', async () => {
    await expectError(await logTime('2024-03-01', 1441), 400);
  });

  it('accepts 1,440 minutes in one entry, then not one minute more that day', async () => {
    expect((await logTime('2024-03-02', 1440)).status).toBe(201);
    const problem = await expectConflict(await logTime('2024-03-02', 1));
    expect(problem.detail).toMatch(/24 hours/);
    expect(await minutesOn('2024-03-02')).toBe(1440);
    // Another day is its own.
    expect((await logTime('2024-03-03', 60)).status).toBe(201);
  });

  it('holds the daily total under 12 concurrent entries of 3 hours: 8 stored, 4 refused', async () => {
    const day = '2024-03-04';
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => logTime(day, 180)))).map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(8).fill(201), ...Array(4).fill(409)]);
    expect(await minutesOn(day)).toBe(1440);
  });

  it('counts the person’s time across tickets', async () => {
    const day = '2024-03-05';
    const other = ((await (await api('tickets', { method: 'POST', token, json: { title: 'Other ticket' } })).json()) as { id: number }).id;
    expect((await logTime(day, 1000)).status).toBe(201);
    await expectConflict(await api(`tickets/${other}/time-entries`, { method: 'POST', token, json: { workDate: day, minutes: 441 } }));
    expect((await api(`tickets/${other}/time-entries`, { method: 'POST', token, json: { workDate: day, minutes: 440 } })).status).toBe(201);
  });
});
