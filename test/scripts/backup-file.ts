import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

// A small backup with awkward text, shared by the restore tests of the CLI and of the local path.

export type Row = Record<string, string | number | null>;

const USERS: Row[] = [
  { id: 1, first_name: 'Ada', surname: "O'Neil", email: 'ada@example.com', password_hash: 'pbkdf2-sha256$100000$x$y', role: 'admin' },
  { id: 3, first_name: 'Zoë', surname: 'Ünal; DROP TABLE users;--', email: 'zoe@example.com', password_hash: 'pbkdf2-sha256$100000$a$b', role: 'staff' },
];
const COMPANIES: Row[] = [{ id: 7, name: 'Acme "Ltd"', name_key: 'acme "ltd"', address: 'Line 1\r\nLine 2\n' }];
const TICKETS: Row[] = Array.from({ length: 40 }, (_, i) => ({
  id: i + 10,
  title: `Ticket ${i}; with a semicolon -- and a dash`,
  description: i % 2 ? 'tab\there /* not a comment */ 你好 🚀' : '',
  company_id: 7,
  reporter_id: i % 2 ? 1 : 3,
  created_at: `2026-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00.000Z`,
}));
const AUDIT: Row[] = [{ id: 5, at: '2026-01-01T00:00:00.000Z', actor_id: null, action: 'create', entity: 'user', entity_id: 1, changes: '{"email":[null,"ada@example.com"]}', request_id: 'setup' }];
export const TABLES: Record<string, Row[]> = { users: USERS, companies: COMPANIES, tickets: TICKETS, audit_log: AUDIT };

/** A format 2 backup file of `tables`, built here by the format's rules, not by the backup code. */
export const backupFile = (tables: Record<string, Row[]>, tamper?: (lines: string[]) => string[]) => {
  const manifest: Record<string, { rows: number; sha256: string }> = {};
  let rowLines: string[] = [];
  for (const [table, rows] of Object.entries(tables)) {
    const own = rows.map((r) => JSON.stringify({ t: table, r }));
    manifest[table] = { rows: own.length, sha256: createHash('sha256').update(own.map((line) => `${line}\n`).join('')).digest('hex') };
    rowLines.push(...own);
  }
  if (tamper) rowLines = tamper(rowLines);
  const header = { format: 2, createdAt: '2026-11-20T03:00:00.000Z', schemaVersion: 1, tables: Object.keys(tables) };
  return gzipSync([JSON.stringify(header), ...rowLines, JSON.stringify({ manifest })].map((line) => `${line}\n`).join(''));
};

