import type { Row } from './format';

/**
 * The database a restore writes to. The restore speaks to it only in literal SQL (no bound
 * parameters), so the same statements run through the D1 binding and, from scripts, through
 * `wrangler d1 execute --remote --file` against the deployed database.
 */
export interface RestoreTarget {
  /** Runs read statements together; the rows of each. */
  read(statements: string[]): Promise<Row[][]>;
  /** Runs statements as one transaction: all of them or none. */
  write(statements: string[]): Promise<void>;
  /** Bytes of SQL worth gathering into one write: each write is a round trip. */
  chunkBytes: number;
}

/** Local D1 chunks: large enough that the restore is not made of round trips, small enough for the proxy. */
export const D1_CHUNK_BYTES = 16 * 1024 * 1024;

/** A D1 binding as the target: each write one batch, which D1 runs as one transaction. */
export const d1Target = (db: D1Database, chunkBytes = D1_CHUNK_BYTES): RestoreTarget => ({
  read: async (statements) => (await db.batch<Row>(statements.map((sql) => db.prepare(sql)))).map((result) => result.results),
  write: async (statements) => {
    if (statements.length) await db.batch(statements.map((sql) => db.prepare(sql)));
  },
  chunkBytes,
});
