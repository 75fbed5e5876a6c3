import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { ORIGIN, api, appFetch, signedIn, type TestUser } from './support';

/**
 * docs/decisions.md#bad-input-is-a-400-never-a-500: a generated set of bad inputs for every call that writes, and bad ids and
 * queries for the calls that read. Each call is first made with its valid input and must succeed,
 * so a refusal below is about the input and not about the caller or the route. Then every bad
 * variant must get its exact status with a JSON message naming what is wrong (the field in
 * `errors`), and afterwards every table must hold exactly what it held before.
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
  /** A body the call accepts, once, from the admin caller; each bad variant changes one thing in it. */
  valid: Record<string, unknown>;
  kinds: Record<string, Kind>;
}

/** One bad request and the answer it must get: the status, and the field `errors` names or the message. */
interface Variant {
  label: string;
  body: string;
  status: number;
  field?: string;
  message?: RegExp;
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

const NEW_PASSWORD = 'a changed passphrase for bad input';

beforeAll(async () => {
  ({ user: me, token } = await signedIn());
  const post = async (path: string, body: unknown) => {
    const res = await api(path, { method: 'POST', token, json: body });
    expect(res.status, `POST ${path}`).toBe(201);
    return json<{ id: number }>(res);
  };
  const company = await post('companies', { name: 'Bad Input Co' });
  const category = await post('ticket-categories', { name: 'Bad Input Cat' });
  const ticket = await post('tickets', { title: 'Bad input target' });
  const line = await post('invoices/autofi/lines', { period: '2030-01', description: 'Target', quantity: 1, unitPriceCents: 100 });
  await post('invoices/gifs-sla/lines', { period: '2030-02', description: 'SLA', quantity: 1, unitPriceCents: 100, status: 'approved' });
  // Billed by the valid body of POST invoices/gifs/statements.
  await post('invoices/gifs-sla/lines', { period: '2030-04', description: 'SLA', quantity: 1, unitPriceCents: 100, status: 'approved' });
  const statement = await post('invoices/gifs/statements', { period: '2030-02' });

  endpoints = [
    { method: 'POST', path: 'auth/login', valid: { username: me.email, password: me.password, audience: env.APP_AUDIENCE }, kinds: { username: 'text', password: 'text', audience: 'text' } },
    {
      method: 'POST',
      path: 'users',
      valid: { firstName: 'A', surname: 'B', email: 'bad-input-new@example.com', password: 'a fresh passphrase for a new user' },
      kinds: { firstName: 'text', surname: 'text', email: 'email', password: 'password', role: 'enum' },
    },
    { method: 'PATCH', path: 'users', valid: { id: me.id, firstName: 'A', surname: 'B', email: me.email, isActive: true }, kinds: { id: 'id', firstName: 'text', surname: 'text', email: 'email', isActive: 'bool', role: 'enum', password: 'password' } },
    { method: 'PATCH', path: 'users/profile', valid: { id: me.id, firstName: 'A', surname: 'B', email: me.email }, kinds: { id: 'id', firstName: 'text', surname: 'text', email: 'email' } },
    // Answers a fresh token, which replaces the caller's (its other sessions end).
    { method: 'PATCH', path: 'users/change-password', valid: { id: me.id, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, kinds: { id: 'id', newPassword: 'password', confirmPassword: 'password' } },
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
      // A day no other test logs time on: a person's day holds at most 24 h.
      valid: { workDate: '2025-08-17', minutes: 30, note: 'n', billable: true },
      kinds: { workDate: 'date', minutes: 'int', note: 'paragraph', billable: 'bool' },
    },
    {
      method: 'POST',
      path: 'invoices/autofi/lines',
      valid: { period: '2030-03', description: 'L', quantity: 1, unitPriceCents: 5, reference: 'r', status: 'draft', companyId: company.id },
      kinds: { period: 'period', description: 'paragraph', quantity: 'int', unitPriceCents: 'signedInt', reference: 'text', status: 'enum', companyId: 'nullableId' },
    },
    { method: 'PATCH', path: `invoices/lines/${line.id}`, valid: { quantity: 2 }, kinds: { quantity: 'int', unitPriceCents: 'signedInt', status: 'enum', description: 'paragraph' } },
    { method: 'POST', path: 'invoices/gifs/statements', valid: { period: '2030-04' }, kinds: { period: 'period', companyId: 'id' } },
    { method: 'PATCH', path: `invoices/gifs/statements/${statement.id}`, valid: { status: 'issued', from: 'open' }, kinds: { status: 'enum', from: 'enum' } },
  ];
}, 60_000);

const send = (method: string, path: string, body: string) =>
  appFetch(`${ORIGIN}/api/v1/${path}`, { method, body, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'cf-connecting-ip': '198.51.100.99' } });

const NOT_JSON = /^Request body must be valid JSON$/;
const NOT_OBJECT = /^Request body must be a JSON object$/;

/** Every bad variant of an endpoint's valid body, each with the answer it must get. */
const variantsOf = ({ valid, kinds }: Endpoint): Variant[] => {
  const variants: Variant[] = [
    { label: 'malformed JSON', body: '{"unclosed": ', status: 400, message: NOT_JSON },
    { label: 'not JSON at all', body: 'hello', status: 400, message: NOT_JSON },
    { label: 'NaN literal', body: '{"x": NaN}', status: 400, message: NOT_JSON },
    { label: 'an empty body', body: '', status: 400, message: NOT_JSON },
    { label: 'an array', body: JSON.stringify([valid]), status: 400, message: NOT_OBJECT },
    { label: 'a string', body: JSON.stringify('body'), status: 400, message: NOT_OBJECT },
    { label: 'a number', body: '42', status: 400, message: NOT_OBJECT },
    { label: 'null', body: 'null', status: 400, message: NOT_OBJECT },
    { label: 'an unknown field', body: JSON.stringify({ ...valid, isAdmin: true }), status: 400, field: 'body', message: /^Unknown field: isAdmin$/ },
  ];
  for (const [field, kind] of Object.entries(kinds)) {
    for (const value of INVALID[kind]) {
      variants.push({ label: `${field} = ${JSON.stringify(value)?.slice(0, 40)}`, body: JSON.stringify({ ...valid, [field]: value }), status: 400, field });
    }
    // JSON.parse reads 1e400 as Infinity, which no field takes.
    if (kind !== 'nullableId') {
      const { [field]: _dropped, ...rest } = valid;
      variants.push({ label: `${field} = 1e400`, body: JSON.stringify(rest).replace(/}$/, `${Object.keys(rest).length ? ', ' : ''}"${field}": 1e400}`), status: 400, field });
    }
  }
  return variants;
};

/** What is wrong with an answer, or null when it is the one the variant must get. */
const mismatch = (variant: Variant, status: number, text: string) => {
  let body: { message?: unknown; errors?: Record<string, unknown> } | null;
  try {
    body = JSON.parse(text) as { message?: unknown; errors?: Record<string, unknown> } | null;
  } catch {
    return 'not JSON';
  }
  if (status !== variant.status) return `status ${status}, not ${variant.status}`;
  if (typeof body?.message !== 'string' || !body.message.trim()) return 'no message';
  if (variant.message && !variant.message.test(body.message)) return `message "${body.message.slice(0, 80)}"`;
  if (variant.field) {
    const named = body.errors?.[variant.field];
    if (!Array.isArray(named) || !named.length) return `errors ${JSON.stringify(Object.keys(body.errors ?? {}))} do not name ${variant.field}`;
  }
  return null;
};

describe('every call that writes', () => {
  it('accepts its valid body first', async () => {
    for (const endpoint of endpoints) {
      const res = await send(endpoint.method, endpoint.path, JSON.stringify(endpoint.valid));
      const text = await res.text();
      const created = endpoint.method === 'POST' && endpoint.path !== 'auth/login';
      expect(res.status, `${endpoint.method} ${endpoint.path}: ${text.slice(0, 200)}`).toBe(created ? 201 : 200);
      // The password change ended this caller's other sessions; its fresh token carries on.
      if (endpoint.path === 'users/change-password') token = (JSON.parse(text) as { token: string }).token;
    }
  });

  it('answers every bad body with its exact status and the field it names, and changes nothing', async () => {
    const before = await snapshot();
    let tried = 0;
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      for (const variant of variantsOf(endpoint)) {
        const res = await send(endpoint.method, endpoint.path, variant.body);
        tried += 1;
        const wrong = mismatch(variant, res.status, await res.text());
        if (wrong) failures.push(`${endpoint.method} ${endpoint.path} with ${variant.label}: ${wrong}`);
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(500);
    expect(await snapshot()).toEqual(before);
  }, 120_000);
});

describe('every read', () => {
  const BAD_IDS = ['abc', '1.5', '-1', '0', '1e3', '99999999999999999999', "1' OR '1'='1"];
  const RECORDS = ['users', 'companies', 'ticket-categories', 'tickets', 'invoices/lines', 'invoices/gifs/statements'];

  /** A read, the same read with one bad value, and the field its 400 names (or the 404's message). */
  const QUERIES: [valid: string, bad: string, answer: { status: number; field?: string; message?: RegExp }][] = [
    ['users?page=1', 'users?page=0', { status: 400, field: 'page' }],
    ['users?pageSize=200', 'users?pageSize=201', { status: 400, field: 'pageSize' }],
    ['users?page=2', 'users?page=abc', { status: 400, field: 'page' }],
    ['tickets?status=open', 'tickets?status=zzz', { status: 400, field: 'status' }],
    ['tickets?sort=-priority', 'tickets?sort=password_hash', { status: 400, field: 'sort' }],
    ['tickets?companyId=4', 'tickets?companyId=-4', { status: 400, field: 'companyId' }],
    ['invoices/autofi/lines?period=2026-12', 'invoices/autofi/lines?period=2026-13', { status: 400, field: 'period' }],
    ['invoices/autofi/lines', 'invoices/nope/lines', { status: 404, message: /^Unknown invoice source 'nope'$/ }],
    ['invoices/autofi/lines.csv?status=invoiced', 'invoices/autofi/lines.csv?status=paid', { status: 400, field: 'status' }],
    ['audit?entity=ticket', 'audit?entity=zzz', { status: 400, field: 'entity' }],
    ['audit?entityId=1', 'audit?entityId=abc', { status: 400, field: 'entityId' }],
    ['audit?actorId=1', 'audit?actorId=0', { status: 400, field: 'actorId' }],
    ['audit?action=update', 'audit?action=zzz', { status: 400, field: 'action' }],
    ['audit?from=2026-02-28', 'audit?from=2026-02-30', { status: 400, field: 'from' }],
    ['audit.csv?to=2026-01-31', 'audit.csv?to=yesterday', { status: 400, field: 'to' }],
    ['audit?pageSize=200', 'audit?pageSize=201', { status: 400, field: 'pageSize' }],
    ['reports/timesheet?from=2026-03-01&to=2026-03-07', 'reports/timesheet', { status: 400, field: 'from' }],
    ['reports/timesheet?from=2026-02-28&to=2026-03-01', 'reports/timesheet?from=2026-02-30&to=2026-03-01', { status: 400, field: 'from' }],
    ['reports/tickets?from=2025-01-01&to=2026-01-01', 'reports/tickets?from=2026-01-01&to=2025-01-01', { status: 400, field: 'to' }],
    ['reports/tickets?from=2026-01-01&to=2026-01-02&groupBy=status', 'reports/tickets?from=2026-01-01&to=2026-01-02&groupBy=zzz', { status: 400, field: 'groupBy' }],
  ];

  const answer = async (path: string) => {
    const res = await api(path, { token });
    return { status: res.status, text: await res.text() };
  };

  it('answers a bad id with 400 naming the id, where a real id is found', async () => {
    const ids: Record<string, number> = {
      users: me.id,
      companies: (await json<{ items: { id: number }[] }>(await api('companies', { token }))).items[0]?.id ?? 0,
      'ticket-categories': (await json<{ items: { id: number }[] }>(await api('ticket-categories', { token }))).items[0]?.id ?? 0,
      tickets: (await json<{ items: { id: number }[] }>(await api('tickets', { token }))).items[0]?.id ?? 0,
      'invoices/lines': (await json<{ items: { id: number }[] }>(await api('invoices/autofi/lines', { token }))).items[0]?.id ?? 0,
      'invoices/gifs/statements': (await json<{ items: { id: number }[] }>(await api('invoices/gifs/statements', { token }))).items[0]?.id ?? 0,
    };
    const failures: string[] = [];
    for (const base of RECORDS) {
      const found = await answer(`${base}/${ids[base]}`);
      if (found.status !== 200) failures.push(`GET ${base}/${ids[base]}: ${found.status}`);
      for (const id of BAD_IDS) {
        const { status, text } = await answer(`${base}/${encodeURIComponent(id)}`);
        const wrong = mismatch({ label: id, body: '', status: 400, field: 'id' }, status, text);
        if (wrong) failures.push(`GET ${base}/${id}: ${wrong}`);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('answers a bad query value with its exact status and field, where the valid one succeeds', async () => {
    const failures: string[] = [];
    for (const [valid, bad, expected] of QUERIES) {
      const good = await answer(valid);
      if (good.status !== 200) failures.push(`GET ${valid}: ${good.status} ${good.text.slice(0, 120)}`);
      const { status, text } = await answer(bad);
      const wrong = mismatch({ label: bad, body: '', ...expected }, status, text);
      if (wrong) failures.push(`GET ${bad}: ${wrong}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
