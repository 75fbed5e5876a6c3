import { env } from 'cloudflare:test';
import { beforeAll, expect, it } from 'vitest';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { ORIGIN, api, appFetch, signedIn, type TestUser } from './support';

/**
 * Issue 7: a generated set of bad inputs for every call that writes, and bad ids and queries for
 * the calls that read. Every answer must be a 4xx with a JSON message, and afterwards every
 * table must hold exactly what it held before.
 */
type Kind = 'text' | 'paragraph' | 'email' | 'int' | 'signedInt' | 'id' | 'nullableId' | 'bool' | 'enum' | 'date' | 'period' | 'password';

const BIG = 'x'.repeat(200_000);
const INVALID: Record<Kind, unknown[]> = {
  text: [null, 42, true, [], {}, BIG, 'ctrl\u0001char', 'lone \ud800 surrogate', 'bell\u0007'],
  paragraph: [null, 42, false, ['a'], { a: 1 }, BIG, 'nul\u0000byte', '\udfff'],
  email: [null, 42, [], 'not-an-email', `${BIG}@example.com`, 'a\u0000@b.co'],
  password: [null, 42, [], '', BIG, 'tab\u0001'],
  int: [null, '1', 1.5, -1, 1e20, true, [], {}],
  signedInt: [null, '1', 1.5, 1e20, -1e20, false, []],
  id: [null, '1', 1.5, -1, 0, 1e20, [], 'abc'],
  nullableId: ['1', 1.5, -1, 0, 1e20, [], 999_999_999],
  bool: [null, 'true', 1, 0, [], {}],
  enum: [null, 'zzz', 42, '', ["'; DROP TABLE tickets;--"]],
  date: ['2026-02-30', '2026-13-01', '01/02/2026', 'yesterday', 20260101, ''],
  period: ['2026-13', '2026-1', '2026-01-01', 'May', 202601, null],
};

interface Endpoint {
  method: 'POST' | 'PATCH';
  path: string;
  valid: Record<string, unknown>;
  kinds: Record<string, Kind>;
}

let me: TestUser;
let token: string;
let endpoints: Endpoint[];
const json = async <T>(res: Response) => (await res.json()) as T;

const snapshot = async () => {
  const tables: Record<string, unknown[]> = {};
  for (const table of DATA_TABLES) tables[table] = (await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;
  return tables;
};

beforeAll(async () => {
  ({ user: me, token } = await signedIn());
  const post = async (path: string, body: unknown) => json<{ id: number }>(await api(path, { method: 'POST', token, json: body }));
  const company = await post('companies', { name: 'Bad Input Co' });
  const category = await post('ticket-categories', { name: 'Bad Input Cat' });
  const ticket = await post('tickets', { title: 'Bad input target' });
  const line = await post('invoices/autofi/lines', { period: '2030-01', description: 'Target', quantity: 1, unitPriceCents: 100 });
  await post('invoices/gifs-sla/lines', { period: '2030-02', description: 'SLA', quantity: 1, unitPriceCents: 100 });
  const statement = await post('invoices/gifs/statements', { period: '2030-02' });

  endpoints = [
    { method: 'POST', path: 'auth/login', valid: { username: me.email, password: me.password, audience: env.APP_AUDIENCE }, kinds: { username: 'text', password: 'text', audience: 'text' } },
    { method: 'POST', path: 'users', valid: { firstName: 'A', surname: 'B', email: 'new@example.com', password: 'pw' }, kinds: { firstName: 'text', surname: 'text', email: 'email', password: 'password', role: 'enum' } },
    { method: 'PATCH', path: 'users', valid: { id: me.id, firstName: 'A', surname: 'B', email: me.email, isActive: true }, kinds: { id: 'id', firstName: 'text', surname: 'text', email: 'email', isActive: 'bool', role: 'enum', password: 'password' } },
    { method: 'PATCH', path: 'users/profile', valid: { id: me.id, firstName: 'A', surname: 'B', email: me.email }, kinds: { id: 'id', firstName: 'text', surname: 'text', email: 'email' } },
    { method: 'PATCH', path: 'users/change-password', valid: { id: me.id, newPassword: 'pw2', confirmPassword: 'pw2' }, kinds: { id: 'id', newPassword: 'password', confirmPassword: 'password' } },
    { method: 'POST', path: 'companies', valid: { name: 'New Co', code: 'N', email: 'a@b.co', phone: '1', address: 'x', isActive: true }, kinds: { name: 'text', code: 'text', email: 'email', phone: 'text', address: 'paragraph', isActive: 'bool' } },
    { method: 'PATCH', path: `companies/${company.id}`, valid: { name: 'Renamed Co' }, kinds: { name: 'text', isActive: 'bool' } },
    { method: 'POST', path: 'ticket-categories', valid: { name: 'New Cat', description: 'd' }, kinds: { name: 'text', description: 'paragraph', isActive: 'bool' } },
    { method: 'PATCH', path: `ticket-categories/${category.id}`, valid: { name: 'Renamed Cat' }, kinds: { name: 'text', description: 'paragraph' } },
    {
      method: 'POST',
      path: 'tickets',
      valid: { title: 'T', description: 'd', status: 'open', priority: 'low', companyId: company.id, categoryId: category.id, assigneeId: me.id, dueAt: '2026-01-01' },
      kinds: { title: 'text', description: 'paragraph', status: 'enum', priority: 'enum', companyId: 'nullableId', categoryId: 'nullableId', assigneeId: 'nullableId', dueAt: 'date' },
    },
    { method: 'PATCH', path: `tickets/${ticket.id}`, valid: { title: 'T2' }, kinds: { title: 'text', status: 'enum', priority: 'enum', companyId: 'nullableId', dueAt: 'date' } },
    { method: 'POST', path: `tickets/${ticket.id}/comments`, valid: { body: 'hello' }, kinds: { body: 'paragraph' } },
    {
      method: 'POST',
      path: `tickets/${ticket.id}/time-entries`,
      valid: { workDate: '2026-01-02', minutes: 30, note: 'n', billable: true },
      kinds: { workDate: 'date', minutes: 'int', note: 'paragraph', billable: 'bool' },
    },
    {
      method: 'POST',
      path: 'invoices/autofi/lines',
      valid: { period: '2030-03', description: 'L', quantity: 1, unitPriceCents: 5, reference: 'r', status: 'draft', companyId: company.id },
      kinds: { period: 'period', description: 'paragraph', quantity: 'int', unitPriceCents: 'signedInt', reference: 'text', status: 'enum', companyId: 'nullableId' },
    },
    { method: 'PATCH', path: `invoices/lines/${line.id}`, valid: { quantity: 2 }, kinds: { quantity: 'int', unitPriceCents: 'signedInt', status: 'enum', description: 'paragraph' } },
    { method: 'POST', path: 'invoices/gifs/statements', valid: { period: '2030-04' }, kinds: { period: 'period' } },
    { method: 'PATCH', path: `invoices/gifs/statements/${statement.id}`, valid: { status: 'issued' }, kinds: { status: 'enum' } },
  ];
}, 60_000);

const send = (method: string, path: string, body: string) =>
  appFetch(`${ORIGIN}/api/v1/${path}`, { method, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'cf-connecting-ip': '198.51.100.99' } });

/** Every bad variant of an endpoint's valid body, with a label for the failure message. */
const variantsOf = ({ valid, kinds }: Endpoint): [string, string][] => {
  const variants: [string, string][] = [
    ['malformed JSON', '{"unclosed": '],
    ['not JSON at all', 'hello'],
    ['NaN literal', '{"x": NaN}'],
    ['an array', JSON.stringify([valid])],
    ['a string', JSON.stringify('body')],
    ['a number', '42'],
    ['null', 'null'],
    ['an empty body', ''],
    ['an unknown field', JSON.stringify({ ...valid, isAdmin: true })],
  ];
  for (const [field, kind] of Object.entries(kinds)) {
    for (const value of INVALID[kind]) variants.push([`${field} = ${JSON.stringify(value)?.slice(0, 40)}`, JSON.stringify({ ...valid, [field]: value })]);
    if (kind !== 'nullableId') variants.push([`${field} = 1e400`, JSON.stringify(valid).replace(/}$/, `, "${field}": 1e400}`).replace(`"${field}":${JSON.stringify(valid[field])},`, '')]);
  }
  return variants;
};

it('answers every bad body with a 4xx JSON message and changes nothing', async () => {
  const before = await snapshot();
  let tried = 0;
  const failures: string[] = [];
  for (const endpoint of endpoints) {
    for (const [label, body] of variantsOf(endpoint)) {
      const res = await send(endpoint.method, endpoint.path, body);
      tried += 1;
      const text = await res.text();
      let message: unknown;
      try {
        message = (JSON.parse(text) as { message?: unknown; detail?: unknown }).message ?? (JSON.parse(text) as { detail?: unknown }).detail;
      } catch {
        message = undefined;
      }
      if (res.status < 400 || res.status >= 500 || typeof message !== 'string') {
        failures.push(`${endpoint.method} ${endpoint.path} with ${label}: ${res.status} ${text.slice(0, 120)}`);
      }
    }
  }
  expect(failures).toEqual([]);
  expect(tried).toBeGreaterThan(500);
  expect(await snapshot()).toEqual(before);
}, 120_000);

it('answers bad ids and query values on every read with a 4xx JSON message', async () => {
  const reads = [
    ...['abc', '1.5', '-1', '0', '1e3', '99999999999999999999', "1' OR '1'='1"].flatMap((id) =>
      ['users', 'companies', 'ticket-categories', 'tickets', 'invoices/lines', 'invoices/gifs/statements'].map((base) => `${base}/${encodeURIComponent(id)}`),
    ),
    'users?page=0', 'users?pageSize=201', 'users?page=abc', 'tickets?status=zzz', 'tickets?sort=password_hash', 'tickets?companyId=-4',
    'invoices/autofi/lines?period=2026-13', 'invoices/nope/lines', 'invoices/autofi/lines.csv?status=paid',
    'audit?entity=zzz', 'audit?entityId=abc', 'audit?actorId=0', 'audit?action=zzz', 'audit?from=2026-02-30', 'audit.csv?to=yesterday', 'audit?pageSize=201',
    'reports/timesheet', 'reports/timesheet?from=2026-02-30&to=2026-03-01', 'reports/tickets?from=2026-01-01&to=2025-01-01', 'reports/tickets?from=2026-01-01&to=2026-01-02&groupBy=zzz',
  ];
  const failures: string[] = [];
  for (const path of reads) {
    const res = await api(path, { token });
    const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
    if (res.status < 400 || res.status >= 500 || typeof body?.message !== 'string') failures.push(`GET ${path}: ${res.status}`);
  }
  expect(failures).toEqual([]);
}, 60_000);
