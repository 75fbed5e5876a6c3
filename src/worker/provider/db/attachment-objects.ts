import { rowsOf } from './rows';

/**
 * Attachments whose file is not in the bucket. A backup holds the attachments table (each
 * file's key and SHA-256) but not the files, which stay in R2; after a restore this names the
 * rows whose objects the bucket does not have (README "Attachments").
 */

export interface MissingObject {
  id: number;
  ticketId: number;
  key: string;
  sha256: string;
}

const PAGE_ROWS = 100;

export const missingAttachmentObjects = async (db: D1Database, files: R2Bucket) => {
  const missing: MissingObject[] = [];
  let checked = 0;
  for (let after = 0; ; ) {
    const page = rowsOf<{ id: number; ticket_id: number; key: string; sha256: string }>(
      await db.prepare('SELECT id, ticket_id, key, sha256 FROM attachments WHERE id > ?1 ORDER BY id LIMIT ?2').bind(after, PAGE_ROWS).run(),
    );
    const found = await Promise.all(page.map((row) => files.head(row.key)));
    page.forEach((row, i) => {
      if (!found[i]) missing.push({ id: row.id, ticketId: row.ticket_id, key: row.key, sha256: row.sha256 });
    });
    checked += page.length;
    const last = page[page.length - 1];
    if (!last || page.length < PAGE_ROWS) return { checked, missing };
    after = last.id;
  }
};
