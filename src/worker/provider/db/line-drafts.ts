import { Conflict } from '../errors/domain';
import { auditDeleted, type AuditContext } from './audit';
import { LINE_AUDIT, findLine } from './invoices';
import { NOW_SQL } from './sql';
import { VERSION_BUMP } from './versions';

/**
 * What only a draft line allows (README "Ledger editing"): deleting it, and approving many at
 * once. The draft rule is in each write's WHERE, never read ahead of it.
 */

/** Deletes a draft line with its audit entry; null when there is no such line, 409 when it is no longer a draft. */
export const deleteDraftLine = async (db: D1Database, id: number, audit: AuditContext) => {
  const [, result] = await db.batch([
    auditDeleted(db, audit, { ...LINE_AUDIT, id, where: ["r.status = 'draft'"] }),
    db.prepare("DELETE FROM invoice_lines WHERE id = ?1 AND status = 'draft'").bind(id),
  ]);
  if ((result?.meta.changes ?? 0) > 0) return true;
  const line = await findLine(db, id);
  if (!line) return null;
  throw new Conflict(`This line is ${line.status}; only a draft line can be deleted`);
};

// The ids travel as one JSON array parameter, so a statement binds three values however many lines it names.
const NAMED = 'id IN (SELECT value FROM json_each(?1))';
/** Every named line is still a draft: the condition that makes an approval all or nothing. */
const ALL_DRAFT = `(SELECT count(*) FROM invoice_lines WHERE ${NAMED} AND status = 'draft') = json_array_length(?1)`;

/**
 * Approves the named draft lines, all or none: the audit entries (one per line, status draft →
 * approved) and the UPDATE carry the same condition in one batch, so a line approved, billed or
 * deleted meanwhile leaves every line as it was. Answers how many were approved.
 */
export const approveDraftLines = async (db: D1Database, ids: number[], { actorId, requestId }: AuditContext) => {
  const named = JSON.stringify(ids);
  const [, result] = await db.batch([
    db
      .prepare(
        `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
         SELECT ?2, 'update', 'invoice_line', id, json_object('status', json_array('draft', 'approved')), ?3
         FROM invoice_lines WHERE ${NAMED} AND ${ALL_DRAFT} ORDER BY id`,
      )
      .bind(named, actorId, requestId),
    db.prepare(`UPDATE invoice_lines SET status = 'approved', updated_at = ${NOW_SQL}, ${VERSION_BUMP} WHERE ${NAMED} AND ${ALL_DRAFT}`).bind(named),
  ]);
  const approved = result?.meta.changes ?? 0;
  if (approved === ids.length) return approved;
  const { results } = await db
    .prepare(`SELECT j.value AS id, l.status FROM json_each(?1) j LEFT JOIN invoice_lines l ON l.id = j.value WHERE l.status IS NOT 'draft' ORDER BY j.key`)
    .bind(named)
    .all<{ id: number; status: string | null }>();
  const refused = results.map((row) => (row.status ? `${row.id} (${row.status})` : `${row.id} (not found)`));
  throw new Conflict(`Nothing was approved: line${refused.length === 1 ? '' : 's'} ${refused.join(', ')} ${refused.length === 1 ? 'is' : 'are'} not a draft`, {
    ids: [`Not drafts: ${results.map((row) => row.id).join(', ')}`],
  });
};
