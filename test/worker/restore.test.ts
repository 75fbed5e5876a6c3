import { applyD1Migrations, env } from 'cloudflare:test';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { BackupResult } from '../../src/shared/types';
import { asBackup, restoreBackup } from '../../src/worker/provider/db/restore';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { api, signedIn } from './support';

let token: string;

const json = async <T>(res: Response) => (await res.json()) as T;
const rowsOf = async (db: D1Database, table: string) => (await db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()).results;

const takeBackup = async () => {
  const res = await api('settings/backup-db', { method: 'POST', token });
  expect(res.status).toBe(201);
  const { key } = await json<BackupResult>(res);
  const object = await env.BACKUPS.get(key);
  return asBackup(JSON.parse(await (object as R2ObjectBody).text()));
};

const emptyRestoreDb = async () => {
  for (const table of [...DATA_TABLES].reverse()) await env.RESTORE_DB.prepare(`DELETE FROM ${table}`).run();
};

beforeAll(async () => {
  await applyD1Migrations(env.RESTORE_DB, env.TEST_MIGRATIONS);
  ({ token } = await signedIn());
});
beforeEach(emptyRestoreDb);

it('restores a backup row for row on every table, awkward text included', async () => {
  const company = await json<{ id: number }>(await api('companies', { method: 'POST', token, json: { name: "O'Brien & Sons, \"Ltd\"", address: 'Line 1\r\nLine 2\n' } }));
  const ticket = await json<{ id: number }>(
    await api('tickets', { method: 'POST', token, json: { title: "Robert'); DROP TABLE tickets;--", description: 'tab\there\nnew line ✓ 你好 🚀', companyId: company.id, dueAt: '2026-02-28' } }),
  );
  await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, json: { body: "It's \\ back' || char(10) || 'slash" } });
  await api(`tickets/${ticket.id}/time-entries`, { method: 'POST', token, json: { workDate: '2026-02-27', minutes: 45, billable: false } });
  await api('invoices/gifs-sla/lines', { method: 'POST', token, json: { period: '2026-02', description: 'SLA', quantity: 1, unitPriceCents: 450_000 } });
  await api('invoices/gifs/statements', { method: 'POST', token, json: { period: '2026-02' } });

  // Read first: the backup's own audit entry is written after its snapshot.
  const originals = await Promise.all(DATA_TABLES.map((table) => rowsOf(env.DB, table)));
  const backup = await takeBackup();
  const restored = await restoreBackup(env.RESTORE_DB, backup);
  expect(backup.tables.audit_log.length).toBeGreaterThanOrEqual(7);
  for (const [i, table] of DATA_TABLES.entries()) {
    const original = originals[i] ?? [];
    expect(restored[table], table).toBe(original.length);
    expect(await rowsOf(env.RESTORE_DB, table), table).toEqual(original);
  }
});

it('refuses to restore over data and refuses a file that is not a backup', async () => {
  const backup = await takeBackup();
  await restoreBackup(env.RESTORE_DB, backup);
  await expect(restoreBackup(env.RESTORE_DB, backup)).rejects.toThrow('not empty');
  expect(() => asBackup({ version: 2, tables: {} })).toThrow('not a version 1 backup');
  expect(() => asBackup({ version: 1, tables: { users: [] } })).toThrow('no rows array');
});

it('restores a backup made before the audit log existed, with an empty log', async () => {
  const { audit_log: _log, ...tables } = (await takeBackup()).tables;
  const restored = await restoreBackup(env.RESTORE_DB, asBackup({ version: 1, createdAt: '2026-01-01T00:00:00.000Z', tables }));
  expect(restored.audit_log).toBe(0);
  expect(restored.users).toBe((await rowsOf(env.DB, 'users')).length);
});

it('takes consistent backups while writers are adding tickets and time', async () => {
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; i < 5; i++) {
      const created = await json<{ id: number }>(await api('tickets', { method: 'POST', token, json: { title: `writer ${w} #${i}` } }));
      await api(`tickets/${created.id}/time-entries`, { method: 'POST', token, json: { workDate: '2026-03-01', minutes: 15 } });
    }
  });
  const backups = Promise.all(Array.from({ length: 4 }, async (_, i) => {
    await new Promise((resolve) => setTimeout(resolve, i * 40));
    return takeBackup();
  }));
  const [taken] = await Promise.all([backups, Promise.all(writers)]);

  for (const backup of taken) {
    const ticketIds = new Set(backup.tables.tickets.map((t) => t.id));
    expect(backup.tables.time_entries.every((e) => ticketIds.has(e.ticket_id))).toBe(true);
    // A change and its audit entry are one write: a snapshot holds both or neither.
    const written = backup.tables.tickets.filter((t) => String(t.title).startsWith('writer ')).map((t) => t.id);
    const logged = backup.tables.audit_log.filter((e) => e.entity === 'ticket' && e.action === 'create').map((e) => e.entity_id);
    expect(logged.filter((id) => written.includes(id))).toEqual(written);
    const timeLogged = backup.tables.audit_log.filter((e) => e.action === 'time' && written.includes(e.entity_id)).length;
    expect(timeLogged).toBe(backup.tables.time_entries.filter((e) => written.includes(e.ticket_id)).length);
  }
  await restoreBackup(env.RESTORE_DB, taken[taken.length - 1]!);
  expect((await env.RESTORE_DB.prepare('PRAGMA foreign_key_check').all()).results).toEqual([]);
}, 30_000);
