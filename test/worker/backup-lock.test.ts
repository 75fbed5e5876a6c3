import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBackup } from '../../src/worker/provider/db/backup';
import { BACKUP_MODE, DATA_TABLES } from '../../src/worker/provider/db/tables';
import { readBackup, rowsIn, type BackupFile } from './backup-files';
import { api, attemptLogin, createUser, expectError, freshIp, login, readJson, signedIn, sleep, type TestUser } from './support';

type Row = Record<string, unknown>;

let token: string;
let user: TestUser;

const holdLock = (expiresIn: number) =>
  env.DB.prepare('INSERT INTO backup_lock (token, expires_at) VALUES (?1, unixepoch() + ?2)').bind(crypto.randomUUID(), expiresIn).run();
const clearLocks = () => env.DB.prepare('DELETE FROM backup_lock').run();
const count = async (sql: string, ...params: unknown[]) => (await env.DB.prepare(sql).bind(...params).first<number>('n')) ?? 0;

beforeAll(async () => {
  ({ token, user } = await signedIn());
});

describe('the backup lock', () => {
  it('has an insert, an update and a delete trigger on every locked table, and none on the others', async () => {
    const { results } = await env.DB.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'backup_lock_%'").all<{ name: string; tbl_name: string }>();
    for (const table of DATA_TABLES) {
      const names = results.filter(({ tbl_name }) => tbl_name === table).map(({ name }) => name).sort();
      const expected = BACKUP_MODE[table] === 'locked' ? ['delete', 'insert', 'update'].map((op) => `backup_lock_${table}_${op}`) : [];
      expect(names, table).toEqual(expected);
    }
  });

  it('turns writes away with 503 and Retry-After while it is held, and changes nothing', async () => {
    const tickets = await count('SELECT count(*) AS n FROM tickets');
    await holdLock(60);
    try {
      const res = await api('tickets', { method: 'POST', token, json: { title: 'During a backup' } });
      expect(res.headers.get('retry-after')).toBe('10');
      expect((await expectError(res, 503)).message).toBe('A database backup is running. Try again in a few seconds.');
      await expectError(await api('users/profile', { method: 'PATCH', token, json: { id: user.id, firstName: 'Changed', surname: user.surname, email: user.email } }), 503);
      await expectError(await api('companies', { method: 'POST', token, json: { name: 'Locked Ltd' } }), 503);
      // Reads go on.
      expect((await api('tickets', { token })).status).toBe(200);
    } finally {
      await clearLocks();
    }
    expect(await count('SELECT count(*) AS n FROM tickets')).toBe(tickets);
    expect(await count('SELECT count(*) AS n FROM users WHERE id = ?1 AND first_name = ?2', user.id, 'Changed')).toBe(0);
  });

  it('lets sign-ins and their failure counts through while it is held', async () => {
    const someone = await createUser();
    const ip = freshIp();
    await holdLock(60);
    try {
      expect((await attemptLogin({ ...someone, password: 'wrong' }, { ip })).status).toBe(401);
      expect(await count('SELECT count(*) AS n FROM login_attempts WHERE key = ?1', `ip:${ip}`)).toBe(1);
      expect(await login(someone, ip)).toEqual(expect.any(String));
    } finally {
      await clearLocks();
    }
  });

  it('frees the database by itself once a lock expires, as a crashed backup leaves it', async () => {
    await holdLock(-1);
    try {
      expect((await api('tickets', { method: 'POST', token, json: { title: 'After a crashed backup' } })).status).toBe(201);
    } finally {
      await clearLocks();
    }
  });

  it('abandons a backup whose lock was lost, and leaves no file', async () => {
    await env.DB.batch(Array.from({ length: 200 }, (_, i) => env.DB.prepare('INSERT INTO tickets (title) VALUES (?1)').bind(`lost lock ${i}`)));
    const before = (await env.BACKUPS.list({ prefix: 'backups/' })).objects.length;
    // One row a page: the backup is still reading when its lock is taken away.
    const running = writeBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 1 });
    while (!(await count('SELECT count(*) AS n FROM backup_lock'))) await sleep(1);
    await clearLocks();
    await expect(running).rejects.toThrow('The backup lost its lock on the database and was abandoned');
    expect((await env.BACKUPS.list({ prefix: 'backups/' })).objects).toHaveLength(before);
  });

  it('lets two backups run at once and releases the lock after both', async () => {
    const [a, b] = await Promise.all([
      writeBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 5 }),
      sleep(3).then(() => writeBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 5 })),
    ]);
    // Each backup's own audit entry is written after its file, so the other may or may not hold it.
    const { audit_log: _a, ...aRows } = a.rows;
    const { audit_log: _b, ...bRows } = b.rows;
    expect(aRows).toEqual(bRows);
    expect(await count('SELECT count(*) AS n FROM backup_lock')).toBe(0);
    expect((await api('tickets', { method: 'POST', token, json: { title: 'After two backups' } })).status).toBe(201);
  });
});

interface Outcome {
  status: number;
  retryAfter: string | null;
  body: Row;
}

const send = async (path: string, json: unknown): Promise<Outcome> => {
  const res = await api(path, { method: 'POST', token, json });
  const { status, headers, body } = await readJson<Row>(res);
  return { status, retryAfter: headers.get('retry-after'), body };
};

/** Every foreign key of every table in the file points at a row the file holds. */
const danglingReferences = async (file: BackupFile) => {
  const dangling: string[] = [];
  for (const table of DATA_TABLES) {
    const { results: keys } = await env.DB.prepare('SELECT "from" AS column, "table" AS parent, "to" AS target FROM pragma_foreign_key_list(?1)').bind(table).all<{ column: string; parent: string; target: string }>();
    for (const { column, parent, target } of keys) {
      const present = new Set(rowsIn(file, parent).map((row) => row[target]));
      for (const row of rowsIn(file, table)) {
        if (row[column] !== null && !present.has(row[column])) dangling.push(`${table}.${column} = ${String(row[column])}`);
      }
    }
  }
  return dangling;
};

const ids = (rows: Row[]) => rows.map((row) => Number(row.id)).sort((a, b) => a - b);

describe('a backup taken while writers are busy', () => {
  it('holds each write wholly or not at all, and every foreign key in it resolves', async () => {
    // A few thousand rows, read 25 at a time, so the backup spans many pages while writes arrive.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO companies (name) VALUES ('Busy Co')"),
      ...Array.from({ length: 6 }, (_, b) =>
        env.DB.prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
           INSERT INTO tickets (title, reporter_id) SELECT 'seed ' || ?1 || '-' || i, ?2 FROM n`,
        ).bind(b, user.id),
      ),
    ]);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
       INSERT INTO time_entries (ticket_id, user_id, work_date, minutes) SELECT (SELECT min(id) FROM tickets) + i % 300, ?1, '2026-03-01', 15 FROM n`,
    ).bind(user.id).run();
    const periods = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`);
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 239)
       INSERT INTO invoice_lines (source, company_id, period, quantity, unit_price_cents, amount_cents, status)
       SELECT 'gifs-sla', (SELECT id FROM companies WHERE name = 'Busy Co'), printf('2025-%02d', 1 + i % 12), 1, 100 + i, 100 + i, 'approved' FROM n`,
    ).run();

    let backupDone = false;
    const tickets: { title: string; ticket: Outcome; time?: Outcome }[] = [];
    const statements: { period: string; outcome: Outcome }[] = [];
    // The backup starts once every writer has had writes through, so the file holds some.
    let writersStarted = () => {};
    const started = new Promise<void>((resolve) => (writersStarted = resolve));
    const progress = () => {
      if (tickets.length >= 6 && statements.length >= 1) writersStarted();
    };
    const ticketWriter = async (w: number) => {
      for (let i = 0; !backupDone || i < 3; i++) {
        const title = `writer ${w} #${i}`;
        const ticket = await send('tickets', { title });
        const entry: (typeof tickets)[number] = { title, ticket };
        tickets.push(entry);
        // A day of its own per round: one person may log at most 24 hours a day (docs/decisions.md#the-security-review), and
        // the signed-in admin logs time in other test files too.
        const workDate = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
        if (ticket.status === 201) entry.time = await send(`tickets/${String(ticket.body.id)}/time-entries`, { workDate, minutes: 30, note: title });
        progress();
      }
    };
    const statementWriter = async () => {
      for (const period of periods) {
        statements.push({ period, outcome: await send('invoices/gifs/statements', { period }) });
        progress();
      }
    };

    // No timers in here: while requests keep workerd busy, a setTimeout can wait indefinitely.
    const writers = Promise.all([ticketWriter(1), ticketWriter(2), ticketWriter(3), statementWriter()]);
    await started;
    const result = await writeBackup(env.DB, env.BACKUPS, { madeBy: { type: 'schedule' }, pageRows: 25 });
    backupDone = true;
    await writers;
    const file = await readBackup(result.key);

    // The writes really overlapped the backup: some were turned away, others went through.
    const outcomes = [...tickets.flatMap(({ ticket, time }) => (time ? [ticket, time] : [ticket])), ...statements.map(({ outcome }) => outcome)];
    const refused = outcomes.filter(({ status }) => status === 503);
    expect(refused.length, 'writes refused during the backup').toBeGreaterThan(0);
    expect(outcomes.filter(({ status }) => status === 201).length, 'writes accepted').toBeGreaterThan(0);
    expect(outcomes.filter(({ status }) => status !== 201 && status !== 503)).toEqual([]);
    for (const outcome of refused) expect(outcome.retryAfter).toBe('10');
    const accepted = tickets.filter(({ ticket }) => ticket.status === 201).map(({ title }) => title);
    const titlesInFile = new Set(rowsIn(file, 'tickets').map((row) => row.title));
    expect(accepted.some((title) => titlesInFile.has(title)), 'writes before the backup are in it').toBe(true);
    expect(accepted.some((title) => !titlesInFile.has(title)), 'writes after the backup are not').toBe(true);
    expect(rowsIn(file, 'statements').length, 'statements written before the backup').toBeGreaterThan(0);

    // A refused write left nothing behind, in the database or in the file.
    const backupTickets = rowsIn(file, 'tickets');
    const backupEntries = rowsIn(file, 'time_entries');
    for (const { title, ticket, time } of tickets) {
      if (ticket.status === 503) {
        expect(await count('SELECT count(*) AS n FROM tickets WHERE title = ?1', title)).toBe(0);
        expect(backupTickets.some((row) => row.title === title)).toBe(false);
      }
      if (time?.status === 503) {
        expect(await count('SELECT count(*) AS n FROM time_entries WHERE note = ?1', title)).toBe(0);
        expect(backupEntries.some((row) => row.note === title)).toBe(false);
      }
    }
    // An accepted write is in the file exactly as it is stored, or not in it at all.
    for (const table of ['tickets', 'time_entries', 'statements', 'invoice_lines'] as const) {
      const stored = new Map((await env.DB.prepare(`SELECT * FROM ${table}`).all<Row>()).results.map((row) => [row.id, row]));
      const inFile = rowsIn(file, table);
      const unchangedSince = table === 'invoice_lines' ? inFile.filter((row) => row.statement_id !== null) : inFile;
      for (const row of unchangedSince) expect(row, `${table} ${String(row.id)}`).toEqual(stored.get(row.id));
      // Rows get increasing ids as they are written: the file holds every row up to its newest, a
      // state the database was in, never one with a later row and without an earlier one.
      const newest = Math.max(0, ...ids(inFile));
      expect(ids(inFile), table).toEqual([...stored.keys()].map(Number).filter((id) => id <= newest).sort((a, b) => a - b));
    }
    // A statement and the lines it bills were written together; the file has both or neither.
    for (const period of periods) {
      const statement = rowsIn(file, 'statements').find((row) => row.period === period);
      const lines = rowsIn(file, 'invoice_lines').filter((row) => row.period === period);
      expect(lines).toHaveLength(20);
      if (statement) {
        // Lines stay approved on an open statement; they become invoiced when it is issued (docs/architecture.md#billing-lines-and-statements).
        expect(lines.every((line) => line.statement_id === statement.id && line.status === 'approved'), period).toBe(true);
        expect(statement.total_cents).toBe(lines.reduce((sum, line) => sum + Number(line.amount_cents), 0));
      } else {
        expect(lines.every((line) => line.statement_id === null && line.status === 'approved'), period).toBe(true);
      }
    }
    expect(await danglingReferences(file)).toEqual([]);
    expect(file.manifest.time_entries?.rows).toBe(backupEntries.length);
    expect(backupEntries.length).toBeGreaterThanOrEqual(3000);

    // Once the backup is done, writes go through again.
    expect(await count('SELECT count(*) AS n FROM backup_lock')).toBe(0);
    expect((await send('tickets', { title: 'after the backup' })).status).toBe(201);
  }, 60_000);
});
