import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Calendar, SlaPolicy } from '../../src/shared/sla';
import { api, expectConflict, expectError, readJson, signedIn } from './support';

let admin: string;
let staff: string;
beforeAll(async () => {
  ({ token: admin } = await signedIn());
  ({ token: staff } = await signedIn('staff'));
});

const unique = (what: string) => `${what} ${crypto.randomUUID().slice(0, 8)}`;
const OFFICE = [
  { day: 2, from: '13:00', to: '17:30' },
  { day: 1, from: '09:00', to: '17:30' },
  { day: 2, from: '09:00', to: '12:00' },
];

const makeCalendar = async (fields: Record<string, unknown> = {}) => {
  const res = await api('calendars', { method: 'POST', token: admin, json: { name: unique('Office'), timeZone: 'Europe/London', hours: OFFICE, holidays: ['2026-12-25', '2026-12-24', '2026-12-25'], ...fields } });
  expect(res.status).toBe(201);
  return (await readJson<Calendar>(res)).body;
};

describe('calendars', () => {
  it('creates, reads, lists, edits and deletes, keeping hours in day and time order and holidays sorted once', async () => {
    const calendar = await makeCalendar();
    expect(calendar).toMatchObject({
      timeZone: 'Europe/London',
      hours: [OFFICE[1], OFFICE[2], OFFICE[0]],
      holidays: ['2026-12-24', '2026-12-25'],
      version: 1,
    });
    const read = await api(`calendars/${calendar.id}`, { token: staff });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"1"');
    const list = (await readJson<{ items: Calendar[] }>(await api(`calendars?q=${encodeURIComponent(calendar.name)}`, { token: staff }))).body;
    expect(list.items.map((item) => item.id)).toEqual([calendar.id]);

    const edited = await api(`calendars/${calendar.id}`, { method: 'PATCH', token: admin, headers: { 'If-Match': '"1"' }, json: { hours: [], timeZone: 'Australia/Sydney' } });
    expect(edited.status).toBe(200);
    expect((await readJson<Calendar>(edited)).body).toMatchObject({ hours: [], timeZone: 'Australia/Sydney', holidays: ['2026-12-24', '2026-12-25'], version: 2 });
    const stale = await api(`calendars/${calendar.id}`, { method: 'PATCH', token: admin, headers: { 'If-Match': '"1"' }, json: { name: unique('Late') } });
    expect(stale.status).toBe(412);

    const entries = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'calendar' AND entity_id = ?1 ORDER BY id").bind(calendar.id).all<{ action: string }>();
    expect(entries.results.map((row) => row.action)).toEqual(['create', 'update']);
    expect((await api(`calendars/${calendar.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await api(`calendars/${calendar.id}`, { token: admin })).status).toBe(404);
  });

  it.each([
    [{ timeZone: 'Mars/Olympus' }, 'timeZone', 'Must be a time zone such as Europe/London'],
    [{ timeZone: undefined }, 'timeZone', 'Required'],
    [{ hours: [{ day: 8, from: '09:00', to: '17:00' }] }, 'hours[0].day', 'Must be a weekday from 1 (Monday) to 7 (Sunday)'],
    [{ hours: [{ day: 1, from: '9am', to: '17:00' }] }, 'hours[0].from', 'Must be a time such as 09:00'],
    [{ hours: [{ day: 1, from: '24:00', to: '06:00' }] }, 'hours[0].from', 'A span cannot start at 24:00'],
    [{ hours: [{ day: 1, from: '09:00', to: '09:00' }] }, 'hours[0]', 'From and to must differ'],
    [{ holidays: ['2026-02-30'] }, 'holidays[0]', 'Must be a real date'],
    [{ holidays: Array.from({ length: 367 }, () => '2026-01-01') }, 'holidays', 'At most 366 holidays'],
    [{ name: '   ' }, 'name', 'Required'],
  ])('refuses %j with a 400 naming the field', async (fields, field, message) => {
    const res = await api('calendars', { method: 'POST', token: admin, json: { name: unique('Bad'), timeZone: 'UTC', ...fields } });
    const body = await expectError(res, 400);
    expect(body.errors?.[field]).toContain(message);
  });

  it('lets only admins change calendars, and everyone read them', async () => {
    const calendar = await makeCalendar();
    const body = await expectError(await api('calendars', { method: 'POST', token: staff, json: { name: unique('Mine'), timeZone: 'UTC' } }), 403);
    expect(body.message).toBe('You need the admin role to change calendars and service-level policies');
    expect((await api(`calendars/${calendar.id}`, { method: 'DELETE', token: staff })).status).toBe(403);
    expect((await api('calendars', { token: staff })).status).toBe(200);
  });

  it('refuses a second calendar of the same name', async () => {
    const calendar = await makeCalendar();
    expect((await api('calendars', { method: 'POST', token: admin, json: { name: calendar.name.toUpperCase(), timeZone: 'UTC' } })).status).toBe(409);
  });
});

describe('service-level policies', () => {
  const policy = (calendarId: number, fields: Record<string, unknown> = {}) => ({
    name: unique('Gold'),
    position: 10,
    calendarId,
    firstResponseMinutes: 60,
    resolutionMinutes: 480,
    ...fields,
  });

  it('creates with the names of what it matches, lists by position, edits and deletes', async () => {
    const calendar = await makeCalendar();
    const company = (await readJson<{ id: number; name: string }>(await api('companies', { method: 'POST', token: admin, json: { name: unique('Acme') } }))).body;
    const created = await api('sla-policies', { method: 'POST', token: admin, json: policy(calendar.id, { companyId: company.id, priority: 'urgent', position: 2 }) });
    expect(created.status).toBe(201);
    const gold = (await readJson<SlaPolicy>(created)).body;
    expect(gold).toMatchObject({ companyId: company.id, companyName: company.name, categoryId: null, categoryName: null, priority: 'urgent', calendarId: calendar.id, calendarName: calendar.name, version: 1 });
    const silver = (await readJson<SlaPolicy>(await api('sla-policies', { method: 'POST', token: admin, json: policy(calendar.id, { position: 1 }) }))).body;

    const list = (await readJson<{ items: SlaPolicy[] }>(await api('sla-policies?pageSize=100', { token: staff }))).body.items.map((item) => item.id);
    expect(list.indexOf(silver.id)).toBeLessThan(list.indexOf(gold.id));

    const edited = await api(`sla-policies/${gold.id}`, { method: 'PATCH', token: admin, json: { priority: null, companyId: null } });
    expect((await readJson<SlaPolicy>(edited)).body).toMatchObject({ priority: null, companyId: null, companyName: null, calendarName: calendar.name, version: 2 });
    const entries = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'sla_policy' AND entity_id = ?1 ORDER BY id").bind(gold.id).all<{ action: string }>();
    expect(entries.results.map((row) => row.action)).toEqual(['create', 'update']);
    expect((await api(`sla-policies/${gold.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect((await api(`sla-policies/${gold.id}`, { token: admin })).status).toBe(404);
  });

  it('keeps a calendar, company or category a policy uses from being deleted, naming the policies', async () => {
    const calendar = await makeCalendar();
    const company = (await readJson<{ id: number }>(await api('companies', { method: 'POST', token: admin, json: { name: unique('Held') } }))).body;
    const category = (await readJson<{ id: number }>(await api('ticket-categories', { method: 'POST', token: admin, json: { name: unique('Held') } }))).body;
    expect((await api('sla-policies', { method: 'POST', token: admin, json: policy(calendar.id, { companyId: company.id, categoryId: category.id }) })).status).toBe(201);
    for (const path of [`calendars/${calendar.id}`, `companies/${company.id}`, `ticket-categories/${category.id}`]) {
      const refused = await expectConflict(await api(path, { method: 'DELETE', token: admin }));
      expect(refused.detail, path).toContain('service-level policies');
    }
  });

  it.each([
    [{ calendarId: 999_999 }, 'calendarId', 'Unknown calendar'],
    [{ companyId: 999_999 }, 'companyId', 'Unknown company'],
    [{ priority: 'whenever' }, 'priority', 'Must be one of low, normal, high, urgent'],
    [{ firstResponseMinutes: 0 }, 'firstResponseMinutes', 'Must be at least 1 minute'],
    [{ firstResponseMinutes: 1.5 }, 'firstResponseMinutes', 'Must be a whole number of minutes'],
    [{ resolutionMinutes: 525_601 }, 'resolutionMinutes', 'Must be at most a year (525600 minutes)'],
    [{ resolutionMinutes: 30 }, 'resolutionMinutes', 'Must not be shorter than the first response target'],
    [{ position: 0 }, 'position', 'Must be at least 1'],
  ])('refuses %j with a 400 naming the field', async (fields, field, message) => {
    const calendar = await makeCalendar();
    const body = await expectError(await api('sla-policies', { method: 'POST', token: admin, json: policy(calendar.id, fields) }), 400);
    expect(body.errors?.[field]).toContain(message);
  });

  it('refuses a first-response target changed alone past the resolution target, inside the write', async () => {
    const calendar = await makeCalendar();
    const created = (await readJson<SlaPolicy>(await api('sla-policies', { method: 'POST', token: admin, json: policy(calendar.id) }))).body;
    const body = await expectError(await api(`sla-policies/${created.id}`, { method: 'PATCH', token: admin, json: { firstResponseMinutes: 600 } }), 400);
    expect(body.errors?.resolutionMinutes).toEqual(['Must not be shorter than the first response target']);
    expect((await readJson<SlaPolicy>(await api(`sla-policies/${created.id}`, { token: admin }))).body).toMatchObject({ firstResponseMinutes: 60, version: 1 });
  });
});
