import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import type { RestoreTarget } from '../src/worker/provider/db/backup/restore-target';

// The parts of wrangler.toml's D1 entry that say where migrations live and where they are recorded.
interface D1Migrations {
  migrations_dir?: string;
  migrations_table?: string;
}

/** A name fit to sit in SQL as it is: the migration files' names and the table's are never anything else. */
const plain = (name: string) => {
  if (!/^[\w.-]+$/.test(name)) throw new Error(`Migration name '${name}' is not plain letters, digits, '_', '.' or '-'.`);
  return name;
};

/**
 * Applies the migrations `wrangler d1 migrations apply --local` would, through a local target,
 * recording each in the same table with the same columns, so wrangler later sees them applied.
 * Starting wrangler's CLI for this cost a local restore about 7 s of CPU, a third of the whole on
 * the bench's backup. Each migration and its record are one transaction, as wrangler runs them;
 * the file goes whole as one statement, and SQLite runs its statements one after another.
 */
export const applyMigrations = async (target: RestoreTarget) => {
  const entry: D1Migrations = unstable_readConfig({ config: 'wrangler.toml' }).d1_databases.find((db: { binding: string }) => db.binding === 'DB') ?? {};
  const folder = entry.migrations_dir ?? 'migrations';
  const table = plain(entry.migrations_table ?? 'd1_migrations');
  // wrangler's own table definition, word for word.
  await target.write([
    `CREATE TABLE IF NOT EXISTS ${table}(\n\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n\t\tname       TEXT UNIQUE,\n\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n);`,
  ]);
  const [applied = []] = await target.read([`SELECT name FROM ${table}`]);
  const done = new Set(applied.map((row) => row.name));
  // wrangler orders them by the number before the first '_'.
  const files = (await readdir(folder)).filter((name) => name.endsWith('.sql') && !done.has(name)).sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
  for (const name of files) {
    const sql = await readFile(path.join(folder, name), 'utf8');
    await target.write([`${sql}\nINSERT INTO ${table} (name) VALUES ('${plain(name)}');`]);
  }
  return files;
};
