import { spawn } from 'node:child_process';
import type { MissingObject } from '../src/worker/provider/db/attachment-objects';
import { d1Read, whereArgs, type D1Location } from './d1-cli';
import { bin } from './run';

const PAGE_ROWS = 1000;

/** Whether the bucket holds `key`: wrangler has no HEAD, so the object is fetched and thrown away. */
const holds = (location: D1Location, bucket: string, key: string) =>
  new Promise<boolean>((resolve, reject) => {
    const child = spawn(bin('wrangler'), ['r2', 'object', 'get', `${bucket}/${key}`, ...whereArgs(location), '--pipe'], {
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code === 0));
  });

/**
 * The attachments of the database at `location` whose files `bucket` (at the same place) does not
 * hold, through wrangler's CLI: what `missingAttachmentObjects` tells of a local restore, for the
 * deployed database (or a local one standing in for it).
 */
export const missingAttachmentsThroughCli = async (location: D1Location, bucket: string) => {
  const missing: MissingObject[] = [];
  let checked = 0;
  for (let after = 0; ; ) {
    const [page = []] = await d1Read(location, [`SELECT id, ticket_id, key, sha256 FROM attachments WHERE id > ${after} ORDER BY id LIMIT ${PAGE_ROWS}`]);
    for (const row of page) {
      if (!(await holds(location, bucket, String(row.key)))) missing.push({ id: Number(row.id), ticketId: Number(row.ticket_id), key: String(row.key), sha256: String(row.sha256) });
    }
    checked += page.length;
    const last = page[page.length - 1];
    if (!last || page.length < PAGE_ROWS) return { checked, missing };
    after = Number(last.id);
  }
};
