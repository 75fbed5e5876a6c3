import { MINUTES_PER_DAY, type CommentPayload, type TimeEntryChanges } from '../../../shared/schemas/tickets';
import { Conflict, NotAllowed } from '../errors/domain';
import { auditDeleted, auditUpdated } from './audit';
import { AUDIT_COMMENT, AUDIT_TIME, type Author } from './ticket-activity';
import { COMMENT_SELECT, TIME_ENTRY_SELECT, toComment, toTimeEntry, type CommentRow, type TimeEntryRow } from './rows';
import { NOW_SQL, assignments, setSql, valuesOf } from './sql';
import { VERSION_BUMP, unlessStale } from './versions';

/**
 * Corrections of comments and time entries (README "Corrections"). Who may change a row is part
 * of the write: the UPDATE or DELETE, and the audit entry ahead of it in the same batch, both
 * carry the condition (its ticket, its author unless the caller is an admin, the If-Match
 * version), so a refused write leaves neither a change nor an entry. Why it was refused is read
 * afterwards, only to word the answer.
 */

/** Who is correcting, and whether they may correct other people's rows (admins). */
export type Corrector = Author & { mayCorrectOthers: boolean };

interface Target {
  ticketId: number;
  id: number;
  version: number | undefined;
}

/** The condition on row `alias`, its four values bound from `?first` on. */
const ownedSql = (alias: string, first: number) =>
  `${alias}.ticket_id = ?${first} AND (${alias}.user_id = ?${first + 1} OR ?${first + 2} = 1) AND ${alias}.version = coalesce(?${first + 3}, ${alias}.version)`;
const ownedValues = (target: Target, by: Corrector) => [target.ticketId, by.actorId, by.mayCorrectOthers ? 1 : 0, target.version ?? null];

/** A corrected entry must keep the person's day at 24 hours or less; its two values bound from `?first` on. */
const dayFitsSql = (alias: string, first: number) =>
  `(SELECT coalesce(sum(o.minutes), 0) FROM time_entries o
     WHERE o.user_id = ${alias}.user_id AND o.work_date = coalesce(?${first}, ${alias}.work_date) AND o.id <> ${alias}.id)
   + coalesce(?${first + 1}, ${alias}.minutes) <= ${MINUTES_PER_DAY}`;

const findComment = async (db: D1Database, target: Target) => {
  const row = await db.prepare(`${COMMENT_SELECT} WHERE m.id = ?1 AND m.ticket_id = ?2`).bind(target.id, target.ticketId).first<CommentRow>();
  return row ? toComment(row) : null;
};

const findTimeEntry = async (db: D1Database, target: Target) => {
  const row = await db.prepare(`${TIME_ENTRY_SELECT} WHERE e.id = ?1 AND e.ticket_id = ?2`).bind(target.id, target.ticketId).first<TimeEntryRow>();
  return row ? toTimeEntry(row) : null;
};

/**
 * Why a correction changed nothing, read after the write: null for no such row (404), a stale
 * version (412), someone else's row (403); otherwise `otherwise` names the rule it broke.
 */
const refusal = <T extends { userId: number; version: number }>(current: T | null, target: Target, by: Corrector, otherwise: string) => {
  if (!unlessStale(current, target.version)) return null;
  if (current && current.userId !== by.actorId && !by.mayCorrectOthers) throw new NotAllowed('correctOthersActivity');
  throw new Conflict(otherwise);
};

const CHANGED_MEANWHILE = 'It changed meanwhile; reload it and try again';

export const updateComment = async (db: D1Database, target: Target, by: Corrector, { body }: CommentPayload) => {
  const [, result] = await db.batch([
    auditUpdated(db, by, { ...AUDIT_COMMENT, action: 'comment_edit', id: target.id, values: { body }, version: target.version, guard: ownedSql('r', 7), guardParams: ownedValues(target, by) }),
    db
      .prepare(`UPDATE ticket_comments SET body = ?6, updated_at = ${NOW_SQL}, ${VERSION_BUMP} WHERE id = ?1 AND ${ownedSql('ticket_comments', 2)}`)
      .bind(target.id, ...ownedValues(target, by), body),
  ]);
  const current = await findComment(db, target);
  if ((result?.meta.changes ?? 0) > 0) return current;
  return refusal(current, target, by, CHANGED_MEANWHILE);
};

/** A comment's or time entry's delete, with its entry in the ticket's history. */
const deleteOne = async (db: D1Database, kind: 'comment' | 'time', target: Target, by: Corrector) => {
  const { table, audit, action, find } =
    kind === 'comment'
      ? { table: 'ticket_comments', audit: AUDIT_COMMENT, action: 'comment_delete' as const, find: findComment }
      : { table: 'time_entries', audit: AUDIT_TIME, action: 'time_delete' as const, find: findTimeEntry };
  const [, result] = await db.batch([
    auditDeleted(db, by, { ...audit, action, id: target.id, guard: ownedSql('r', 6), guardParams: ownedValues(target, by) }),
    db.prepare(`DELETE FROM ${table} WHERE id = ?1 AND ${ownedSql(table, 2)}`).bind(target.id, ...ownedValues(target, by)),
  ]);
  if ((result?.meta.changes ?? 0) > 0) return true;
  return refusal(await find(db, target), target, by, CHANGED_MEANWHILE) !== null;
};

export const deleteComment = (db: D1Database, target: Target, by: Corrector) => deleteOne(db, 'comment', target, by);

const TIME_COLUMNS = { workDate: 'work_date', minutes: 'minutes', note: 'note', billable: 'billable' };

export const updateTimeEntry = async (db: D1Database, target: Target, by: Corrector, changes: TimeEntryChanges) => {
  const rule = [...ownedValues(target, by), changes.workDate ?? null, changes.minutes ?? null];
  const list = assignments(changes, TIME_COLUMNS);
  const set = [setSql(list, 2 + rule.length), `updated_at = ${NOW_SQL}`, VERSION_BUMP].filter(Boolean).join(', ');
  const [, result] = await db.batch([
    auditUpdated(db, by, {
      ...AUDIT_TIME,
      action: 'time_edit',
      id: target.id,
      values: changes,
      version: target.version,
      guard: `${ownedSql('r', 7)} AND ${dayFitsSql('r', 11)}`,
      guardParams: rule,
    }),
    db
      .prepare(`UPDATE time_entries SET ${set} WHERE id = ?1 AND ${ownedSql('time_entries', 2)} AND ${dayFitsSql('time_entries', 6)}`)
      .bind(target.id, ...rule, ...valuesOf(list)),
  ]);
  const current = await findTimeEntry(db, target);
  if ((result?.meta.changes ?? 0) > 0) return current;
  return refusal(current, target, by, `Time logged on ${changes.workDate ?? current?.workDate} would come to more than 24 hours`);
};

export const deleteTimeEntry = (db: D1Database, target: Target, by: Corrector) => deleteOne(db, 'time', target, by);
