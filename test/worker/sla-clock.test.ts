import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import worker from '../../src/worker/index';
import type { Env } from '../../src/worker/env';
import type { SlaReport, SlaPolicy } from '../../src/shared/sla';
import type { DashboardSummary, NotificationPage, Page, Ticket } from '../../src/shared/types';
import { decideClock, NO_CLOCK, type ClockBefore, type PolicyRule } from '../../src/worker/provider/db/sla/clock';
import { alertsDue } from '../../src/worker/provider/db/sla/alerts';
import { slaAlertsOnSchedule } from '../../src/worker/provider/scheduled';
import { api, createUser, expectError, login, readJson, signedIn, type TestUser } from './support';

const MINUTE = 60_000;
const AROUND_THE_CLOCK = { timeZone: 'UTC', hours: [], holidays: [] };
// Monday to Friday, 09:00–17:00 in London.
const OFFICE = { timeZone: 'Europe/London', hours: [1, 2, 3, 4, 5].map((day) => ({ day: day as 1, from: '09:00', to: '17:00' })), holidays: ['2026-12-25'] };

const rule = (fields: Partial<PolicyRule> = {}): PolicyRule => ({
  id: 1,
  companyId: null,
  categoryId: null,
  priority: null,
  calendar: AROUND_THE_CLOCK,
  firstResponseMinutes: 60,
  resolutionMinutes: 240,
  ...fields,
});
const OPEN = { status: 'open', priority: 'normal', company_id: null, category_id: null };
const at = (iso: string) => new Date(iso);
const plus = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MINUTE).toISOString();
const before = (clock: ReturnType<typeof decideClock>, fields = OPEN, createdAt = '2026-11-02T10:00:00.000Z'): ClockBefore => ({ ...clock, ...fields, created_at: createdAt });

describe('the clock, as a ticket write decides it', () => {
  it('starts a new ticket in business time: 80% warnings, due times, nothing sent', () => {
    const clock = decideClock(null, OPEN, [rule({ calendar: OFFICE, firstResponseMinutes: 120, resolutionMinutes: 600 })], at('2026-11-27T16:00:00.000Z'));
    // Friday 16:00 in London: one hour left that day, the rest from Monday 09:00.
    expect(clock).toEqual({
      ...NO_CLOCK,
      sla_policy_id: 1,
      sla_started_at: '2026-11-27T16:00:00.000Z',
      sla_first_response_warn_at: '2026-11-30T09:36:00.000Z',
      sla_first_response_due_at: '2026-11-30T10:00:00.000Z',
      sla_resolution_warn_at: '2026-11-30T16:00:00.000Z',
      sla_resolution_due_at: '2026-12-01T10:00:00.000Z',
    });
  });

  it('takes the first policy by position whose set fields all match, and none when none does', () => {
    const policies = [rule({ id: 7, companyId: 3, priority: 'urgent' }), rule({ id: 8, companyId: 3 }), rule({ id: 9, categoryId: 4 })];
    const now = at('2026-11-02T10:00:00.000Z');
    expect(decideClock(null, { ...OPEN, company_id: 3, priority: 'urgent' }, policies, now).sla_policy_id).toBe(7);
    expect(decideClock(null, { ...OPEN, company_id: 3 }, policies, now).sla_policy_id).toBe(8);
    expect(decideClock(null, { ...OPEN, category_id: 4 }, policies, now).sla_policy_id).toBe(9);
    expect(decideClock(null, OPEN, policies, now)).toEqual(NO_CLOCK);
  });

  it('pauses on hold and moves every due time by the business time it stood still', () => {
    const policies = [rule({ calendar: OFFICE })];
    // Monday 10:00 London (UTC in November).
    const started = decideClock(null, OPEN, policies, at('2026-11-02T10:00:00.000Z'));
    expect(started.sla_first_response_due_at).toBe('2026-11-02T11:00:00.000Z');
    const onHold = decideClock(before(started), { ...OPEN, status: 'on_hold' }, policies, at('2026-11-02T10:30:00.000Z'));
    expect(onHold).toEqual({ ...started, sla_paused_at: '2026-11-02T10:30:00.000Z' });
    // Back the next morning at 10:00: 6.5 + 1 business hours stood still, the night did not count.
    const back = decideClock(before(onHold, { ...OPEN, status: 'on_hold' }), OPEN, policies, at('2026-11-03T10:00:00.000Z'));
    expect(back.sla_paused_at).toBeNull();
    expect(back.sla_paused_seconds).toBe(7.5 * 3600);
    expect(back.sla_first_response_due_at).toBe('2026-11-03T10:30:00.000Z');
    expect(back.sla_resolution_due_at).toBe('2026-11-03T13:30:00.000Z');
  });

  it('stops on resolved and closed, and a reopened ticket goes on from where it stopped', () => {
    const policies = [rule()];
    const started = decideClock(null, OPEN, policies, at('2026-11-02T10:00:00.000Z'));
    const resolved = decideClock(before(started), { ...OPEN, status: 'resolved' }, policies, at('2026-11-02T10:20:00.000Z'));
    const closed = decideClock(before(resolved, { ...OPEN, status: 'resolved' }), { ...OPEN, status: 'closed' }, policies, at('2026-11-02T12:00:00.000Z'));
    expect(closed.sla_paused_at).toBe('2026-11-02T10:20:00.000Z');
    const reopened = decideClock(before(closed, { ...OPEN, status: 'closed' }), OPEN, policies, at('2026-11-02T12:20:00.000Z'));
    expect(reopened.sla_paused_seconds).toBe(2 * 3600);
    expect(reopened.sla_resolution_due_at).toBe('2026-11-02T16:00:00.000Z');
  });

  it('decides again when the matched fields change: a new policy starts over from the ticket’s start, with nothing sent', () => {
    const policies = [rule({ id: 5, priority: 'urgent', firstResponseMinutes: 15, resolutionMinutes: 60 }), rule({ id: 6 })];
    const started = { ...decideClock(null, OPEN, policies, at('2026-11-02T10:00:00.000Z')), sla_alerts: 5 };
    const kept = decideClock(before(started), { ...OPEN, status: 'in_progress' }, policies, at('2026-11-02T10:30:00.000Z'));
    expect(kept).toEqual(started);
    const urgent = decideClock(before(started), { ...OPEN, priority: 'urgent' }, policies, at('2026-11-02T10:30:00.000Z'));
    expect(urgent).toMatchObject({ sla_policy_id: 5, sla_alerts: 0, sla_first_response_due_at: '2026-11-02T10:15:00.000Z', sla_resolution_due_at: '2026-11-02T11:00:00.000Z' });
    expect(decideClock(before(started), { ...OPEN, priority: 'urgent' }, [], at('2026-11-02T10:30:00.000Z'))).toEqual(NO_CLOCK);
  });

  it('gives no clock, rather than a failed write, when the calendar has no working time left', () => {
    const everyDayOff = { timeZone: 'UTC', hours: [{ day: 1 as const, from: '09:00', to: '17:00' }], holidays: [] as string[] };
    for (let day = 0; day < 3 * 366 + 7; day++) everyDayOff.holidays.push(new Date(Date.UTC(2026, 10, 2) + day * 86_400_000).toISOString().slice(0, 10));
    expect(decideClock(null, OPEN, [rule({ calendar: everyDayOff })], at('2026-11-02T10:00:00.000Z'))).toEqual(NO_CLOCK);
  });

  it('sends a warning, then the breach, once each; a breach found late goes without its warning; a first response ends its target', () => {
    const row = {
      id: 4,
      title: 'Printer',
      sla_policy_id: 1,
      sla_alerts: 0,
      sla_alert_at: '2026-11-02T10:48:00.000Z',
      sla_first_responded_at: null as string | null,
      sla_first_response_warn_at: '2026-11-02T10:48:00.000Z',
      sla_first_response_due_at: '2026-11-02T11:00:00.000Z',
      sla_resolution_warn_at: '2026-11-02T13:12:00.000Z',
      sla_resolution_due_at: '2026-11-02T14:00:00.000Z',
    };
    expect(alertsDue(row, '2026-11-02T10:47:59.999Z')).toEqual({ notices: [], sent: 0 });
    expect(alertsDue(row, '2026-11-02T10:50:00.000Z')).toEqual({ notices: [{ kind: 'sla_warning', title: 'First response due soon: #4 Printer' }], sent: 1 });
    expect(alertsDue({ ...row, sla_alerts: 1 }, '2026-11-02T11:00:00.000Z')).toEqual({ notices: [{ kind: 'sla_breached', title: 'First response overdue: #4 Printer' }], sent: 3 });
    expect(alertsDue(row, '2026-11-02T15:00:00.000Z')).toEqual({
      notices: [
        { kind: 'sla_breached', title: 'First response overdue: #4 Printer' },
        { kind: 'sla_breached', title: 'Resolution overdue: #4 Printer' },
      ],
      sent: 15,
    });
    expect(alertsDue({ ...row, sla_first_responded_at: '2026-11-02T10:40:00.000Z' }, '2026-11-02T13:30:00.000Z')).toEqual({
      notices: [{ kind: 'sla_warning', title: 'Resolution due soon: #4 Printer' }],
      sent: 4,
    });
  });
});

type Person = TestUser & { token: string };
let admin: string;
let agent: Person;
let reporter: Person;
let company: { id: number; name: string };
let otherCompany: { id: number; name: string };
let policy: SlaPolicy;

const unique = (what: string) => `${what} ${crypto.randomUUID().slice(0, 8)}`;
const person = async (firstName: string): Promise<Person> => {
  const user = await createUser({ firstName, surname: 'Clocked', role: 'staff' });
  return { ...user, token: await login(user) };
};
const post = async <T>(path: string, token: string, json: unknown) => {
  const res = await api(path, { method: 'POST', token, json });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(201);
  return (await readJson<T>(res)).body;
};
const patch = async (id: number, token: string, json: unknown) => {
  const res = await api(`tickets/${id}`, { method: 'PATCH', token, json });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await readJson<Ticket>(res)).body;
};
const read = async (id: number) => (await readJson<Ticket>(await api(`tickets/${id}`, { token: admin }))).body;
const list = async (query: string) => (await readJson<Page<Ticket>>(await api(`tickets?pageSize=100&${query}`, { token: admin }))).body.items.map((ticket) => ticket.id);
const ticketFor = (token: string, fields: Record<string, unknown> = {}) => post<Ticket>('tickets', token, { title: unique('Clocked'), priority: 'normal', companyId: company.id, ...fields });
/** Moves a ticket's clock as if `minutes` had passed since it started, keeping the derived columns in step. */
const age = async (id: number, minutes: number) => {
  const shift = `'-${minutes} minutes'`;
  const column = (name: string) => `${name} = strftime('%Y-%m-%dT%H:%M:%fZ', ${name}, ${shift})`;
  await env.DB.prepare(
    `UPDATE tickets SET ${['created_at', 'sla_started_at', 'sla_first_response_due_at', 'sla_resolution_due_at', 'sla_first_response_warn_at', 'sla_resolution_warn_at', 'sla_due_at', 'sla_alert_at', 'sla_paused_at', 'sla_first_responded_at'].map(column).join(', ')} WHERE id = ?1`,
  )
    .bind(id)
    .run();
};
/** The service-level notices `who` has about the given tickets, newest first. */
const notices = async (who: Person, tickets: Ticket[]) =>
  (await readJson<NotificationPage>(await api('notifications?pageSize=100', { token: who.token }))).body.items
    .filter((item) => item.kind.startsWith('sla_') && tickets.some((ticket) => ticket.id === item.entityId))
    .map((item) => `${item.kind}:${item.title}`);

let calendarId: number;
/** A company of its own with a policy of one hour to respond and four to resolve, around the clock. */
const clockedCompany = async () => {
  const made = await post<{ id: number; name: string }>('companies', admin, { name: unique('Clocked Co') });
  await post<SlaPolicy>('sla-policies', admin, { name: unique('Gold'), position: 5, companyId: made.id, calendarId, firstResponseMinutes: 60, resolutionMinutes: 240 });
  return made;
};

beforeAll(async () => {
  ({ token: admin } = await signedIn());
  [agent, reporter] = [await person('Agent'), await person('Reporter')];
  otherCompany = await post('companies', admin, { name: unique('Unclocked Co') });
  ({ id: calendarId } = await post<{ id: number }>('calendars', admin, { name: unique('Always'), timeZone: 'UTC', hours: [], holidays: [] }));
  company = await post('companies', admin, { name: unique('Clocked Co') });
  policy = await post<SlaPolicy>('sla-policies', admin, { name: unique('Gold'), position: 5, companyId: company.id, calendarId, firstResponseMinutes: 60, resolutionMinutes: 240 });
});

describe('the clock on tickets', () => {
  it('is on every answer of a matching ticket, counted from its creation; other tickets have none', async () => {
    const ticket = await ticketFor(reporter.token);
    expect(ticket.sla).toEqual({
      policyId: policy.id,
      policyName: policy.name,
      firstResponseDueAt: plus(ticket.createdAt, 60),
      firstRespondedAt: null,
      resolutionDueAt: plus(ticket.createdAt, 240),
      pausedSeconds: 0,
      state: 'running',
    });
    expect((await read(ticket.id)).sla).toEqual(ticket.sla);
    expect((await ticketFor(reporter.token, { companyId: otherCompany.id })).sla).toBeNull();
    const listed = (await readJson<Page<Ticket>>(await api(`tickets?q=${ticket.id}`, { token: admin }))).body.items[0];
    expect(listed?.sla).toEqual(ticket.sla);
  });

  it('takes the first response from a comment or status change by someone other than the reporter', async () => {
    const ticket = await ticketFor(reporter.token);
    await post(`tickets/${ticket.id}/comments`, reporter.token, { body: 'Any news?' });
    await patch(ticket.id, reporter.token, { status: 'in_progress' });
    expect((await read(ticket.id)).sla?.firstRespondedAt).toBeNull();
    await post(`tickets/${ticket.id}/comments`, agent.token, { body: 'Looking at it' });
    const responded = (await read(ticket.id)).sla?.firstRespondedAt;
    expect(responded).toEqual(expect.any(String));
    await post(`tickets/${ticket.id}/comments`, agent.token, { body: 'Still looking' });
    expect((await read(ticket.id)).sla?.firstRespondedAt).toBe(responded);

    const other = await ticketFor(reporter.token);
    expect((await patch(other.id, agent.token, { status: 'in_progress' })).sla?.firstRespondedAt).toEqual(expect.any(String));
  });

  it('pauses on hold, listed as paused, and moves its due times by the time on hold when work goes on', async () => {
    const ticket = await ticketFor(reporter.token);
    const held = await patch(ticket.id, agent.token, { status: 'on_hold' });
    expect(held.sla?.state).toBe('paused');
    expect(await list('sla=paused')).toContain(ticket.id);
    expect(await list('sla=due_soon')).not.toContain(ticket.id);
    // On hold for an hour (moved back in the row, as no test waits an hour).
    await env.DB.prepare("UPDATE tickets SET sla_paused_at = strftime('%Y-%m-%dT%H:%M:%fZ', sla_paused_at, '-60 minutes') WHERE id = ?1").bind(ticket.id).run();
    const back = await patch(ticket.id, agent.token, { status: 'open' });
    expect(back.sla?.state).toBe('running');
    expect(back.sla?.pausedSeconds).toBeGreaterThanOrEqual(3600);
    expect(Date.parse(back.sla?.resolutionDueAt ?? '')).toBe(Date.parse(ticket.sla?.resolutionDueAt ?? '') + (back.sla?.pausedSeconds ?? 0) * 1000);
    expect(await list('sla=paused')).not.toContain(ticket.id);
  });

  it('is due soon, then breached past a target, in the list, the dashboard and the report; resolving late stays breached, on time is met', async () => {
    const company = await clockedCompany();
    const late = await ticketFor(reporter.token, { assigneeId: agent.id, companyId: company.id });
    const onTime = await ticketFor(reporter.token, { companyId: company.id });
    expect(await list(`sla=due_soon&companyId=${company.id}`)).toEqual(expect.arrayContaining([late.id, onTime.id]));
    const counted = (await readJson<DashboardSummary>(await api('dashboard/summary', { token: admin }))).body;

    await age(late.id, 61);
    expect((await read(late.id)).sla?.state).toBe('breached');
    expect(await list(`sla=breached&companyId=${company.id}`)).toEqual([late.id]);
    expect(await list(`sla=due_soon&companyId=${company.id}`)).toEqual([onTime.id]);
    const now = (await readJson<DashboardSummary>(await api('dashboard/summary', { token: admin }))).body;
    expect(now.slaBreached).toBe(counted.slaBreached + 1);
    expect(now.slaDueSoon).toBe(counted.slaDueSoon - 1);

    expect((await patch(late.id, agent.token, { status: 'resolved' })).sla?.state).toBe('breached');
    expect((await patch(onTime.id, agent.token, { status: 'resolved' })).sla?.state).toBe('met');
    const month = new Date().toISOString().slice(0, 7);
    const today = new Date().toISOString().slice(0, 10);
    const report = (await readJson<SlaReport>(await api(`reports/sla?from=${month}-01&to=${today}&companyId=${company.id}`, { token: admin }))).body;
    const row = report.rows.find((item) => item.month === month);
    expect(row).toMatchObject({ companyId: company.id, companyName: company.name, met: 1, breached: 1, percentMet: 50 });
    expect(report.totals).toMatchObject({ met: 1, breached: 1, percentMet: 50 });
    expect(await list(`sla=breached&companyId=${company.id}`)).toEqual([late.id]);
  });

  it('sorts by the next due time, tickets without a running clock last', async () => {
    const company = await clockedCompany();
    const first = await ticketFor(reporter.token, { companyId: company.id });
    const second = await ticketFor(reporter.token, { companyId: company.id });
    await age(first.id, 30);
    const none = await ticketFor(reporter.token, { status: 'on_hold', companyId: company.id });
    const ids = await list(`companyId=${company.id}&sort=slaDueAt&open=true`);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(none.id));
  });

  it('is decided again when what it matched on changes', async () => {
    const ticket = await ticketFor(reporter.token);
    expect((await patch(ticket.id, agent.token, { companyId: otherCompany.id })).sla).toBeNull();
    expect((await patch(ticket.id, agent.token, { companyId: company.id })).sla).toMatchObject({ policyId: policy.id, state: 'running' });
  });

  it('leaves a ticket without a clock, and nothing more to warn of, when its policy is deleted', async () => {
    const made = await clockedCompany();
    const ticket = await ticketFor(reporter.token, { companyId: made.id });
    const policyId = ticket.sla?.policyId;
    expect((await api(`sla-policies/${policyId}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await read(ticket.id)).sla).toBeNull();
    await age(ticket.id, 61);
    const sent = await slaAlertsOnSchedule(env);
    expect(sent.filter(({ notification }) => notification.entityId === ticket.id)).toEqual([]);
    const row = await env.DB.prepare('SELECT sla_alert_at, sla_due_at FROM tickets WHERE id = ?1').bind(ticket.id).first();
    expect(row).toEqual({ sla_alert_at: null, sla_due_at: null });
    expect(await list(`sla=breached&companyId=${made.id}`)).toEqual([]);
  });

  it('keeps every change of two saves sent at once, the clock decided from the row each one wrote over', async () => {
    const ticket = await ticketFor(reporter.token);
    const category = await post<{ id: number }>('ticket-categories', admin, { name: unique('Race') });
    const saves = await Promise.all([
      api(`tickets/${ticket.id}`, { method: 'PATCH', token: agent.token, json: { status: 'on_hold' } }),
      api(`tickets/${ticket.id}`, { method: 'PATCH', token: admin, json: { categoryId: category.id } }),
      api(`tickets/${ticket.id}`, { method: 'PATCH', token: admin, json: { priority: 'high' } }),
    ]);
    expect(saves.map((res) => res.status)).toEqual([200, 200, 200]);
    const stored = await read(ticket.id);
    expect(stored).toMatchObject({ status: 'on_hold', categoryId: category.id, priority: 'high', version: ticket.version + 3 });
    expect(stored.sla?.state).toBe('paused');
    const row = await env.DB.prepare('SELECT sla_paused_at, sla_due_at, sla_alert_at FROM tickets WHERE id = ?1').bind(ticket.id).first();
    expect(row).toMatchObject({ sla_paused_at: expect.any(String), sla_due_at: null, sla_alert_at: null });
  });

  it('refuses an unknown filter or sort with the values it takes', async () => {
    expect((await expectError(await api('tickets?sla=late', { token: admin }), 400)).message).toBeTruthy();
    const body = await (await api('tickets?sla=late', { token: admin })).text();
    expect(body).toContain('Must be one of breached, due_soon, paused');
    expect((await api('tickets?sort=-slaDueAt', { token: admin })).status).toBe(200);
    expect(await (await api('reports/sla?from=2026-01-01', { token: admin })).text()).toContain('Required');
    expect(await (await api('reports/sla?from=2026-02-01&to=2026-01-01', { token: admin })).text()).toMatch(/from|to/i);
  });
});

describe('warnings from the minute trigger', () => {
  const runTrigger = async () => {
    const ctx = createExecutionContext();
    await (worker.scheduled as ExportedHandlerScheduledHandler<Env>)(createScheduledController({ scheduledTime: new Date(), cron: '* * * * *' }), env as Env, ctx);
    await waitOnExecutionContext(ctx);
  };

  it('tells the assignee at 80% and at the breach, once each, and admins while nobody is assigned', async () => {
    const assigned = await ticketFor(reporter.token, { assigneeId: agent.id });
    const nobodys = await ticketFor(reporter.token);
    const someAdmin = await createUser({ firstName: 'Duty', surname: 'Admin', role: 'admin' });
    const dutyAdmin = { ...someAdmin, token: await login(someAdmin) };
    const both = [assigned, nobodys];
    await runTrigger();
    expect(await notices(agent, both)).toEqual([]);
    expect(await notices(dutyAdmin, both)).toEqual([]);

    await age(assigned.id, 49);
    await age(nobodys.id, 61);
    await runTrigger();
    await runTrigger();
    expect(await notices(agent, both)).toEqual([`sla_warning:First response due soon: #${assigned.id} ${assigned.title}`]);
    expect(await notices(dutyAdmin, both)).toEqual([`sla_breached:First response overdue: #${nobodys.id} ${nobodys.title}`]);

    await age(assigned.id, 12);
    await runTrigger();
    expect(await notices(agent, both)).toEqual([
      `sla_breached:First response overdue: #${assigned.id} ${assigned.title}`,
      `sla_warning:First response due soon: #${assigned.id} ${assigned.title}`,
    ]);
  });

  it('sends each notice once when two runs race, and nothing for a ticket answered or on hold', async () => {
    const raced = await ticketFor(reporter.token, { assigneeId: agent.id });
    const answered = await ticketFor(reporter.token, { assigneeId: agent.id });
    const held = await ticketFor(reporter.token, { assigneeId: agent.id });
    await post(`tickets/${answered.id}/comments`, agent.token, { body: 'On it' });
    await patch(held.id, agent.token, { status: 'on_hold' });
    for (const id of [raced.id, answered.id, held.id]) await age(id, 50);
    const runs = await Promise.all([slaAlertsOnSchedule(env), slaAlertsOnSchedule(env), slaAlertsOnSchedule(env)]);
    const sent = runs.flat().filter(({ notification }) => [raced.id, answered.id, held.id].includes(notification.entityId));
    expect(sent.map(({ notification }) => `${notification.kind}:${notification.entityId}`)).toEqual([`sla_warning:${raced.id}`]);
    // Mailed once, its subject naming the ticket once.
    const mails = await env.DB.prepare("SELECT subject FROM mail_outbox WHERE ticket_id = ?1 AND kind = 'sla_warning'").bind(raced.id).all<{ subject: string }>();
    expect(mails.results).toEqual([{ subject: `[#${raced.id}] First response due soon: ${raced.title}` }]);
    const row = await env.DB.prepare('SELECT sla_alerts, sla_alert_at, sla_resolution_warn_at FROM tickets WHERE id = ?1').bind(raced.id).first<Record<string, unknown>>();
    expect(row?.sla_alerts).toBe(1);
    // Next: the first-response breach, ten minutes on.
    expect(row?.sla_alert_at).toBe((await env.DB.prepare('SELECT sla_first_response_due_at AS due FROM tickets WHERE id = ?1').bind(raced.id).first<{ due: string }>())?.due);
  });
});
