import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { LIVE_CHANGES_MAX, liveEntitiesOf, type ChangedEvent, type LiveChanges } from '../../src/shared/live';
import type { Ticket } from '../../src/shared/types';
import { changesAfterSql } from '../../src/worker/provider/db/live';
import { connect, countD1Statements, isType } from './live-socket';
import { api, createUser, expectError, login, readJson, signedIn } from './support';

const newTicket = async (token: string, title = 'Caught up') =>
  (await readJson<Ticket>(await api('tickets', { method: 'POST', token, json: { title } }))).body;

const changesAfter = async (token: string, after: number | string) => {
  const res = await api(`live/changes?after=${after}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as LiveChanges;
};

const latestSeq = async () => (await env.DB.prepare('SELECT coalesce(max(id), 0) AS seq FROM audit_log').first<{ seq: number }>())?.seq ?? 0;

/** `count` audit entries written straight to the log, as that many writes would: one ticket id each, from `firstId`. */
const writeEntries = (actorId: number, count: number, firstId = 1) =>
  env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
     INSERT INTO audit_log (actor_id, action, entity, entity_id, request_id) SELECT ?1, 'update', 'ticket', ?3 + i, 'bulk' FROM n`,
  )
    .bind(actorId, count, firstId)
    .run();

const named = (changes: ChangedEvent[]) => changes.map(({ entity, id }) => `${entity}:${id}`);

describe('seq', () => {
  it('is on every changed event: the write’s highest audit entry, which live/changes names too', async () => {
    const { token } = await signedIn('staff');
    const socket = await connect(token);
    const hello = await socket.next(isType('hello'));
    const ticket = await newTicket(token);
    const created = await socket.next(isType('changed', (m) => m.entity === 'ticket' && m.id === ticket.id));
    expect(created.seq).toBeGreaterThan(hello.seq);
    expect(created.seq).toBe(await latestSeq());

    const caught = await changesAfter(token, hello.seq);
    expect(caught).toEqual({ seq: created.seq, reload: false, changes: [created] });
    // From where an answer ends, nothing more until someone writes.
    expect(await changesAfter(token, caught.seq)).toEqual({ seq: caught.seq, reload: false, changes: [] });
    socket.ws.close();
  });

  it('rises with every write, and a reader polling while many commit at once misses none', async () => {
    const { token } = await signedIn('staff');
    const start = await latestSeq();
    const writes = 40;
    let done = false;
    const seen = new Map<string, number>();
    const passed: number[] = [];
    // A reader carrying on from each answer's seq, as a client does, while the writes race.
    const reader = (async () => {
      let after = start;
      for (;;) {
        const finished = done;
        const answer = await changesAfter(token, after);
        expect(answer.reload).toBe(false);
        for (const change of answer.changes) {
          expect(change.seq).toBeGreaterThan(after);
          expect(change.seq).toBeLessThanOrEqual(answer.seq);
          seen.set(`${change.entity}:${change.id}`, change.seq);
        }
        passed.push(answer.seq);
        after = answer.seq;
        if (finished) return;
      }
    })();
    const tickets = await Promise.all(Array.from({ length: writes }, (_, index) => newTicket(token, `Race ${index}`)));
    done = true;
    await reader;

    const all = await changesAfter(token, start);
    const seqs = all.changes.map((change) => change.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(writes);
    expect(named(all.changes).sort()).toEqual(tickets.map((ticket) => `ticket:${ticket.id}`).sort());
    // Every record the reader was told of, at the seq the full read gives it: none committed behind its back.
    expect(new Map(all.changes.map((change) => [`${change.entity}:${change.id}`, change.seq]))).toEqual(seen);
    expect(passed).toEqual([...passed].sort((a, b) => a - b));
    expect(passed.at(-1)).toBe(all.seq);
  });
});

describe('GET live/changes', () => {
  it('lists one change a record, the last write winning, with its version now', async () => {
    const { token } = await signedIn('staff');
    const ticket = await newTicket(token);
    const start = await latestSeq();
    for (const title of ['One', 'Two', 'Three']) {
      const res = await api(`tickets/${ticket.id}`, { method: 'PATCH', token, json: { title } });
      expect(res.status).toBe(200);
    }
    await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, json: { body: 'last word' } });
    const { changes } = await changesAfter(token, start);
    expect(changes).toEqual([
      expect.objectContaining({ type: 'changed', entity: 'ticket', id: ticket.id, action: 'comment', version: ticket.version + 3, seq: await latestSeq() }),
    ]);
    expect(JSON.stringify(changes)).not.toContain('Three');
  });

  it(`answers up to ${LIVE_CHANGES_MAX} entries; one more says reload everything`, async () => {
    const { user, token } = await signedIn('staff');
    const start = await latestSeq();
    await writeEntries(user.id, LIVE_CHANGES_MAX);
    const full = await changesAfter(token, start);
    expect(full.reload).toBe(false);
    expect(full.changes).toHaveLength(LIVE_CHANGES_MAX);
    expect(full.seq).toBe(start + LIVE_CHANGES_MAX);
    expect(full.changes[0]).toMatchObject({ entity: 'ticket', id: 1, seq: start + 1 });

    await writeEntries(user.id, 1, LIVE_CHANGES_MAX + 1);
    expect(await changesAfter(token, start)).toEqual({ seq: start + LIVE_CHANGES_MAX + 1, reload: true, changes: [] });
    // From the seq of a reload the client carries on as usual.
    expect(await changesAfter(token, start + 1)).toMatchObject({ reload: false, changes: { length: LIVE_CHANGES_MAX } });
  });

  it('says reload everything when asked after the newest entry: the log was restored from an older backup', async () => {
    const { token } = await signedIn('staff');
    const seq = await latestSeq();
    expect(await changesAfter(token, seq + 10)).toEqual({ seq, reload: true, changes: [] });
  });

  it('tells each person exactly what their socket was told: never a sign-in or an import', async () => {
    const { token: staff } = await signedIn('staff');
    const { token: billing } = await signedIn('billing');
    const { token: admin } = await signedIn('admin');
    const colleague = await createUser({ role: 'staff' });
    const sockets = await Promise.all([staff, billing, admin].map((token) => connect(token)));
    const [hello] = await Promise.all(sockets.map((socket) => socket.next(isType('hello'))));
    const start = hello?.seq ?? 0;

    const ticket = await newTicket(admin);
    await login(colleague);
    const code = `LC${crypto.randomUUID().slice(0, 4)}`;
    await api('companies', { method: 'POST', token: admin, json: { name: `Live Vendor ${code}`, code } });
    const csv = `period,company,description,quantity,unit_price,reference\r\n2034-01,${code},Imported,1,10.00,REF-LIVE-1`;
    const imported = await api('invoices/autofi/lines/import?dryRun=false&fileName=live.csv', { method: 'POST', token: billing, body: csv, headers: { 'content-type': 'text/csv' } });
    const importEntries = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE id > ?1 AND entity = 'import'").bind(start).first<{ n: number }>();
    const sessionEntries = await env.DB.prepare("SELECT count(*) AS n FROM audit_log WHERE id > ?1 AND entity = 'session'").bind(start).first<{ n: number }>();
    // The log does hold what must stay unsaid.
    expect({ imported: imported.status < 300, imports: importEntries?.n, sessions: sessionEntries?.n }).toEqual({ imported: true, imports: 1, sessions: 1 });
    // The last write: once each socket has it, it has had every earlier one.
    await api(`tickets/${ticket.id}`, { method: 'PATCH', token: admin, json: { title: 'Last of all' } });

    for (const [index, token] of [staff, billing, admin].entries()) {
      const socket = sockets[index];
      if (!socket) throw new Error('no socket');
      await socket.next(isType('changed', (m) => m.entity === 'ticket' && m.id === ticket.id && m.action === 'update'));
      const told = socket.messages.filter(isType('changed'));
      const { changes } = await changesAfter(token, start);
      expect(named(changes)).not.toContainEqual(expect.stringMatching(/^(session|import):/));
      // The socket got one event a write; live/changes folds a record's writes into its last.
      const lastOfEach = new Map(told.map((event) => [`${event.entity}:${event.id}`, event.seq]));
      lastOfEach.set(`ticket:${ticket.id}`, await latestSeq());
      expect(new Map(changes.map((change) => [`${change.entity}:${change.id}`, change.seq]))).toEqual(lastOfEach);
      socket.ws.close();
    }
  });

  it('refuses a missing, negative, fractional, non-numeric or huge after with 400 naming it', async () => {
    const { token } = await signedIn('staff');
    for (const query of ['', '?after=', '?after=-1', '?after=1.5', '?after=abc', '?after=1e400', `?after=${Number.MAX_SAFE_INTEGER + 2}`, '?after=99999999999999999999']) {
      const body = await expectError(await api(`live/changes${query}`, { token }), 400);
      expect({ query, fields: Object.keys(body.errors ?? {}) }).toEqual({ query, fields: ['after'] });
    }
    expect((await api(`live/changes?after=0`, { token })).status).toBe(200);
  });

  it('is for signed-in people only', async () => {
    await expectError(await api('live/changes?after=0'), 401);
    await expectError(await api('live/changes?after=0', { token: 'not-a-token' }), 401);
  });
});

describe('what live/changes costs', () => {
  it('walks the audit log by its primary key, never sorting', async () => {
    const entities = liveEntitiesOf('staff');
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${changesAfterSql(entities.length)}`)
      .bind(0, ...entities)
      .all<{ detail: string }>();
    const plan = results.map((row) => row.detail).join('\n');
    expect(plan).toMatch(/SEARCH a USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('spends the session check and one batch of two statements, however many changes it lists', async () => {
    const { user, token } = await signedIn('staff');
    const start = await latestSeq();
    const few = await countD1Statements(env.DB, () => changesAfter(token, start));
    await writeEntries(user.id, 500);
    const many = await countD1Statements(env.DB, () => changesAfter(token, start));
    expect([few, many]).toEqual([3, 3]);
  });
});
