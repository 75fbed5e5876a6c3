import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../src/shared/dates';
import { isoWeekOf, isoWeekSql } from '../../src/shared/iso-week';
import type { AuditEntry, NotificationPage, Page, TimeEntry, TimesheetWeek, UnapprovedWeeks } from '../../src/shared/types';
import { api, expectConflict, expectError, readJson, signedIn, type TestUser } from './support';

// Timesheets that close: submit, approve, reject, reopen, and the lock on time in closed weeks
// (docs/api.md#timesheets).

interface Person {
  user: TestUser;
  token: string;
}

let staff: Person;
let colleague: Person;
let billing: Person;
let admin: Person;
let ticketId: number;

const post = (path: string, who: Person, json?: unknown) => api(path, { method: 'POST', token: who.token, ...(json === undefined ? {} : { json }) });
const move = (who: Person, owner: Person, week: string, action: string, json?: unknown) => post(`timesheets/${owner.user.id}/${week}/${action}`, who, json);
const moved = async (who: Person, owner: Person, week: string, action: string, json?: unknown) => {
  const res = await move(who, owner, week, action, json);
  const { status, body, text } = await readJson<TimesheetWeek>(res);
  expect(status, text).toBe(200);
  return body;
};
const weekOf = async (who: Person, owner: Person, week: string) =>
  (await readJson<TimesheetWeek>(await api(`timesheets?week=${week}&userId=${owner.user.id}`, { token: who.token }))).body;
const logTime = (who: Person, workDate: string, minutes = 30) => post(`tickets/${ticketId}/time-entries`, who, { workDate, minutes });
const logged = async (who: Person, workDate: string, minutes = 30) => {
  const res = await logTime(who, workDate, minutes);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as TimeEntry;
};
const history = async (id: number) =>
  (await readJson<Page<AuditEntry>>(await api(`audit?entity=timesheet&entityId=${id}&pageSize=100`, { token: admin.token }))).body.items;
const timesheetRowId = async (userId: number, week: string) =>
  (await env.DB.prepare('SELECT id FROM timesheet_weeks WHERE user_id = ?1 AND week = ?2').bind(userId, week).first<{ id: number }>())?.id ?? 0;
const notices = async (who: Person) =>
  (await readJson<NotificationPage>(await api('notifications?pageSize=100', { token: who.token }))).body.items.filter((n) => n.entity === 'timesheet');

beforeAll(async () => {
  staff = await signedIn('staff');
  colleague = await signedIn('staff');
  billing = await signedIn('billing');
  admin = await signedIn('admin');
  const res = await post('tickets', staff, { title: 'Timesheets' });
  ticketId = ((await res.json()) as { id: number }).id;
});

describe('ISO weeks in SQL', () => {
  it('agree with the shared helper on every day across several year ends', async () => {
    const days: string[] = [];
    for (let day = '2019-12-23'; day < '2028-01-10'; day = addDays(day, 1)) days.push(day);
    const { results } = await env.DB.prepare(`SELECT value AS day, ${isoWeekSql('value')} AS week FROM json_each(?1)`)
      .bind(JSON.stringify(days))
      .all<{ day: string; week: string }>();
    expect(results).toHaveLength(days.length);
    for (const { day, week } of results) expect(week, day).toBe(isoWeekOf(day));
    expect(results.find((r) => r.day === '2027-01-01')?.week).toBe('2026-W53');
  });
});

describe('a week moves open → submitted → approved', () => {
  const WEEK = '2026-W10'; // 2026-03-02 … 2026-03-08

  it('is open until the person submits it, with the time it holds', async () => {
    await logged(staff, '2026-03-02', 60);
    await logged(staff, '2026-03-08', 15);
    await logged(staff, '2026-03-09', 15); // the next week
    expect(await weekOf(colleague, staff, WEEK)).toMatchObject({ userId: staff.user.id, week: WEEK, state: 'open', minutes: 75, submittedAt: null, reason: '' });
  });

  it('is submitted by the person only, once', async () => {
    expect((await expectError(await move(colleague, staff, WEEK, 'submit'), 403)).message).toMatch(/own week/);
    expect((await expectError(await move(admin, staff, WEEK, 'submit'), 403)).message).toMatch(/own week/);
    const week = await moved(staff, staff, WEEK, 'submit');
    expect(week).toMatchObject({ state: 'submitted', minutes: 75, submittedAt: expect.any(String) });
    expect((await expectConflict(await move(staff, staff, WEEK, 'submit'))).detail).toBe(`Week ${WEEK} is submitted; only an open or rejected week can be submitted`);
    const [entry] = await history(await timesheetRowId(staff.user.id, WEEK));
    expect(entry).toMatchObject({ action: 'submit', entity: 'timesheet', actorId: staff.user.id, changes: { state: ['open', 'submitted'] } });
    expect(entry?.recordName).toBe(`${staff.user.firstName} ${staff.user.surname}, ${WEEK}`);
  });

  it('locks the time in it: no new, changed or deleted entry, each a 409 naming the week', async () => {
    const [entry] = (await readJson<{ items: TimeEntry[] }>(await api(`tickets/${ticketId}/time-entries`, { token: staff.token }))).body.items.filter(
      (e) => e.workDate === '2026-03-02',
    );
    if (!entry) throw new Error('no entry');
    const message = `Week ${WEEK} is submitted`;
    expect((await expectConflict(await logTime(staff, '2026-03-04'))).detail).toBe(message);
    const edit = (who: Person, json: unknown) => api(`tickets/${ticketId}/time-entries/${entry.id}`, { method: 'PATCH', token: who.token, json });
    expect((await expectConflict(await edit(staff, { minutes: 45 }))).detail).toBe(message);
    expect((await expectConflict(await edit(admin, { note: 'admin fix' }))).detail).toBe(message);
    // Moving it out of the locked week changes the locked week too.
    expect((await expectConflict(await edit(staff, { workDate: '2026-03-09' }))).detail).toBe(message);
    expect((await expectConflict(await api(`tickets/${ticketId}/time-entries/${entry.id}`, { method: 'DELETE', token: staff.token }))).detail).toBe(message);
    // Moving time from an open week into it.
    const later = await logged(staff, '2026-03-10', 10);
    expect((await expectConflict(await api(`tickets/${ticketId}/time-entries/${later.id}`, { method: 'PATCH', token: staff.token, json: { workDate: '2026-03-03' } }))).detail).toBe(message);
    // Nothing changed, nothing audited.
    expect((await weekOf(staff, staff, WEEK)).minutes).toBe(75);
    const ticketHistory = (await readJson<Page<AuditEntry>>(await api(`audit?entity=ticket&entityId=${ticketId}&pageSize=100`, { token: admin.token }))).body.items;
    expect(ticketHistory.filter((e) => e.action === 'time_edit' || e.action === 'time_delete')).toEqual([]);
    // Other people's weeks and the person's other weeks stay open.
    await logged(colleague, '2026-03-04');
    await logged(staff, '2026-03-11');
  });

  it('is approved by billing or an admin, never by the person, and the person is told', async () => {
    expect((await expectError(await move(colleague, staff, WEEK, 'approve'), 403)).message).toMatch(/billing or admin/);
    expect((await expectError(await move(staff, staff, WEEK, 'approve'), 403)).message).toMatch(/billing or admin/);
    await moved(billing, billing, '2026-W10', 'submit');
    expect((await expectError(await move(billing, billing, WEEK, 'approve'), 403)).message).toMatch(/own week/);
    const week = await moved(billing, staff, WEEK, 'approve');
    expect(week).toMatchObject({ state: 'approved', decidedBy: billing.user.id, decidedByName: expect.any(String), decidedAt: expect.any(String) });
    expect((await expectConflict(await move(admin, staff, WEEK, 'approve'))).detail).toBe(`Week ${WEEK} is approved; only a submitted week can be approved`);
    expect((await expectConflict(await logTime(staff, '2026-03-05'))).detail).toBe(`Week ${WEEK} is approved`);
    const [entry] = await history(await timesheetRowId(staff.user.id, WEEK));
    expect(entry).toMatchObject({ action: 'approve', actorId: billing.user.id, changes: { state: ['submitted', 'approved'] } });
    const [notice] = await notices(staff);
    expect(notice).toMatchObject({ kind: 'timesheet_approved', entity: 'timesheet', title: WEEK, actorId: billing.user.id });
    expect(await notices(billing)).toEqual([]);
  });

  it('is reopened by an admin only, for the person to change', async () => {
    expect((await expectError(await move(billing, staff, WEEK, 'reopen'), 403)).message).toMatch(/admin/);
    const week = await moved(admin, staff, WEEK, 'reopen');
    expect(week.state).toBe('open');
    expect((await expectConflict(await move(admin, staff, WEEK, 'reopen'))).detail).toBe(`Week ${WEEK} is open; only an approved week can be reopened`);
    await logged(staff, '2026-03-05', 5);
    const [entry] = await history(await timesheetRowId(staff.user.id, WEEK));
    expect(entry).toMatchObject({ action: 'reopen', actorId: admin.user.id, changes: { state: ['approved', 'open'] } });
  });
});

describe('a rejected week', () => {
  const WEEK = '2026-W12'; // 2026-03-16 … 2026-03-22

  it('needs a reason, goes back to the person with it, and can be submitted again', async () => {
    await logged(colleague, '2026-03-17', 90);
    expect((await expectConflict(await move(billing, colleague, WEEK, 'reject', { reason: 'Why?' }))).detail).toBe(
      `Week ${WEEK} is open; only a submitted week can be rejected`,
    );
    await moved(colleague, colleague, WEEK, 'submit');
    expect((await expectError(await move(billing, colleague, WEEK, 'reject', {}), 400)).errors?.reason).toBeDefined();
    expect((await expectError(await move(billing, colleague, WEEK, 'reject', { reason: '   ' }), 400)).errors?.reason).toBeDefined();
    expect((await expectError(await move(billing, colleague, WEEK, 'reject', { reason: 'x'.repeat(1001) }), 400)).errors?.reason).toBeDefined();
    const week = await moved(billing, colleague, WEEK, 'reject', { reason: 'Tuesday is missing the client call' });
    expect(week).toMatchObject({ state: 'rejected', reason: 'Tuesday is missing the client call', decidedBy: billing.user.id });
    const [notice] = await notices(colleague);
    expect(notice).toMatchObject({ kind: 'timesheet_rejected', title: `${WEEK}: Tuesday is missing the client call` });
    const [entry] = await history(await timesheetRowId(colleague.user.id, WEEK));
    expect(entry).toMatchObject({ action: 'reject', changes: { state: ['submitted', 'rejected'], reason: ['', 'Tuesday is missing the client call'] } });
    // Open again for the person: time goes in, and the week is submitted anew.
    await logged(colleague, '2026-03-18', 30);
    const again = await moved(colleague, colleague, WEEK, 'submit');
    expect(again).toMatchObject({ state: 'submitted', minutes: 120, reason: '', decidedBy: null });
  });
});

describe('racing writes', () => {
  it('orders time sent at the same moment as a submit: each entry is in before it or refused, never after', async () => {
    const WEEK = '2026-W14'; // 2026-03-30 … 2026-04-05
    const days = ['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04', '2026-04-05'];
    const [submit, ...writes] = await Promise.all([
      move(staff, staff, WEEK, 'submit'),
      ...days.flatMap((day) => [logTime(staff, day, 10), logTime(staff, day, 20)]),
    ]);
    expect(submit?.status).toBe(200);
    let accepted = 0;
    for (const res of writes) {
      if (res.status === 201) accepted += ((await res.json()) as TimeEntry).minutes;
      else expect((await expectConflict(res)).detail).toBe(`Week ${WEEK} is submitted`);
    }
    // Every accepted entry's audit entry comes before the submit's: nothing got in after.
    const submitted = await env.DB.prepare("SELECT max(id) AS id FROM audit_log WHERE action = 'submit' AND actor_id = ?1").bind(staff.user.id).first<{ id: number }>();
    const latest = await env.DB.prepare("SELECT max(a.id) AS id FROM audit_log a WHERE a.action = 'time' AND a.actor_id = ?1 AND a.entity_id = ?2")
      .bind(staff.user.id, ticketId)
      .first<{ id: number }>();
    expect(latest?.id ?? 0).toBeLessThan(submitted?.id ?? 0);
    expect((await weekOf(staff, staff, WEEK)).minutes).toBe(accepted);
  });

  it('lets only one of an approve and a reject sent at once decide a week', async () => {
    const WEEK = '2026-W15';
    await logged(colleague, '2026-04-07');
    await moved(colleague, colleague, WEEK, 'submit');
    const results = await Promise.all([move(billing, colleague, WEEK, 'approve'), move(admin, colleague, WEEK, 'reject', { reason: 'No' })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const entries = await history(await timesheetRowId(colleague.user.id, WEEK));
    expect(entries.filter((e) => e.action === 'approve' || e.action === 'reject')).toHaveLength(1);
    expect((await notices(colleague)).filter((n) => n.title.startsWith(WEEK))).toHaveLength(1);
  });
});

describe('approvers', () => {
  const WEEK = '2026-W20'; // 2026-05-11 … 2026-05-17

  it('see every person with time in a week, waiting weeks first; others may not list them', async () => {
    await logged(staff, '2026-05-11');
    await logged(colleague, '2026-05-12');
    await moved(colleague, colleague, WEEK, 'submit');
    expect((await expectError(await api(`timesheets?week=${WEEK}`, { token: staff.token }), 403)).message).toMatch(/billing or admin/);
    const { body } = await readJson<{ items: TimesheetWeek[] }>(await api(`timesheets?week=${WEEK}`, { token: billing.token }));
    expect(body.items.map((w) => [w.userId, w.state])).toEqual([
      [colleague.user.id, 'submitted'],
      [staff.user.id, 'open'],
    ]);
  });

  it('approve or reject many weeks in one write, skipping those not waiting and their own', async () => {
    await moved(staff, staff, WEEK, 'submit');
    await logged(billing, '2026-05-13');
    await moved(billing, billing, WEEK, 'submit');
    const weeks = [staff, colleague, billing, admin].map((p) => ({ userId: p.user.id, week: WEEK }));
    expect((await expectError(await post('timesheets/approve', staff, { weeks }), 403)).message).toMatch(/billing or admin/);
    expect((await expectError(await post('timesheets/approve', billing, { weeks: [] }), 400)).errors?.weeks).toBeDefined();
    expect((await expectError(await post('timesheets/approve', billing, { weeks: [{ userId: staff.user.id, week: '2026-W99' }] }), 400)).message).toMatch(/ISO week/);
    const tooMany = Array.from({ length: 101 }, (_, i) => ({ userId: i + 1, week: WEEK }));
    expect((await expectError(await post('timesheets/approve', billing, { weeks: tooMany }), 400)).message).toMatch(/At most 100/);
    const { body } = await readJson<{ decided: number }>(await post('timesheets/approve', billing, { weeks }));
    expect(body.decided).toBe(2);
    const states = (await readJson<{ items: TimesheetWeek[] }>(await api(`timesheets?week=${WEEK}`, { token: admin.token }))).body.items;
    expect(Object.fromEntries(states.map((w) => [w.userId, w.state]))).toEqual({
      [staff.user.id]: 'approved',
      [colleague.user.id]: 'approved',
      [billing.user.id]: 'submitted',
    });
    const rejected = await readJson<{ decided: number }>(await post('timesheets/reject', admin, { weeks, reason: 'Split the meeting' }));
    expect(rejected.body.decided).toBe(1);
    expect((await weekOf(admin, billing, WEEK)).state).toBe('rejected');
  });
});

describe('billing a month', () => {
  it('names the weeks with time in the month that are not approved', async () => {
    const unapproved = async () => (await readJson<UnapprovedWeeks>(await api('timesheets/unapproved?period=2026-06', { token: billing.token }))).body;
    expect(await unapproved()).toEqual({ total: 0, weeks: [] });
    await logged(billing, '2026-05-31'); // a Sunday: May's week, outside June
    await logged(staff, '2026-06-01', 40); // 2026-W23
    await logged(staff, '2026-06-02', 20);
    await logged(colleague, '2026-06-30', 25); // 2026-W27, running into July
    await logged(colleague, '2026-07-01', 60);
    await moved(colleague, colleague, '2026-W27', 'submit');
    expect(await unapproved()).toEqual({
      total: 2,
      weeks: [
        { userId: staff.user.id, userName: expect.any(String), week: '2026-W23', state: 'open', minutes: 60 },
        { userId: colleague.user.id, userName: expect.any(String), week: '2026-W27', state: 'submitted', minutes: 25 },
      ],
    });
    await moved(staff, staff, '2026-W23', 'submit');
    await moved(billing, staff, '2026-W23', 'approve');
    expect((await unapproved()).weeks.map((w) => w.week)).toEqual(['2026-W27']);
    expect((await expectError(await api('timesheets/unapproved?period=2026-13', { token: billing.token }), 400)).errors?.period).toBeDefined();
  });
});

describe('bad requests', () => {
  it('names what is wrong', async () => {
    expect((await expectError(await api('timesheets', { token: staff.token }), 400)).errors?.week).toBeDefined();
    for (const week of ['2025-W53', '2026-W00', '2026-47', 'W47']) {
      expect((await expectError(await api(`timesheets?week=${week}&userId=${staff.user.id}`, { token: staff.token }), 400)).errors?.week, week).toBeDefined();
      expect((await expectError(await move(staff, staff, week, 'submit'), 400)).errors?.week, week).toBeDefined();
    }
    expect((await expectError(await post('timesheets/abc/2026-W10/submit', staff), 400)).errors?.userId).toBeDefined();
    expect((await expectError(await api('timesheets?week=2026-W10&userId=999999', { token: staff.token }), 404)).message).toBe('Person not found');
    expect((await expectError(await move(billing, staff, '2026-W30', 'reject', { reason: 'x', extra: 1 }), 400)).message).toMatch(/Unknown field/);
  });
});
