import path from 'node:path';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import type { Row } from '../src/worker/provider/db/backup/format';
import type { RestoreTarget } from '../src/worker/provider/db/backup/restore-target';
import { localStateDir, storageOnlyConfig } from './local-env';

/**
 * A Worker of a few lines that runs the statements of each request with `db.batch` (one
 * transaction) on the D1 binding and answers with the rows of each, or with the error's text.
 */
const BATCH_WORKER = `
export default {
  async fetch(request, env) {
    const statements = await request.json();
    try {
      const results = statements.length ? await env.DB.batch(statements.map((sql) => env.DB.prepare(sql))) : [];
      return Response.json(results.map((result) => result.results));
    } catch (error) {
      return new Response(error instanceof Error ? error.message : String(error), { status: 500 });
    }
  },
};
`;

/**
 * Local writes go to workerd in pieces this large: each is one request, one `db.batch` and one
 * transaction, made of statements each within D1's size limits as the restore builds them.
 */
export const LOCAL_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * The local database (under localStateDir()) as a restore's target, through a purpose-built Worker
 * in workerd rather than wrangler's platform proxy. The proxy sends each statement's SQL on its own
 * through a synchronous call, so a restore of a million rows spent most of its time there; here a
 * whole chunk of statements is one HTTP request and the batch runs inside workerd, next to SQLite.
 * docs/operations.md has the figures.
 */
export const withLocalD1Target = async <T>(work: (target: RestoreTarget) => Promise<T>, chunkBytes = LOCAL_CHUNK_BYTES): Promise<T> => {
  const config = storageOnlyConfig();
  try {
    // The same D1 id, hence the same SQLite file, as the proxy and `npm start` use.
    const { d1Databases, compatibilityDate } = unstable_getMiniflareWorkerOptions(config.file).workerOptions;
    const mf = new Miniflare({
      modules: true,
      script: BATCH_WORKER,
      compatibilityDate,
      d1Databases,
      d1Persist: path.resolve(localStateDir(), 'v3', 'd1'),
      cf: false,
      log: new Log(LogLevel.WARN),
    });
    try {
      await mf.ready;
      const run = async (statements: string[]) => {
        const response = await mf.dispatchFetch('http://restore.local/', { method: 'POST', body: JSON.stringify(statements) });
        if (!response.ok) throw new Error(`D1 refused the statements: ${await response.text()}`);
        return (await response.json()) as Row[][];
      };
      return await work({
        read: run,
        write: async (statements) => {
          if (statements.length) await run(statements);
        },
        chunkBytes,
      });
    } finally {
      await mf.dispose();
    }
  } finally {
    config.dispose();
  }
};
