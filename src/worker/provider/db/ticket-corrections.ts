import { MINUTES_PER_DAY, type CommentPayload, type TimeEntryChanges } from '../../../shared/schemas/tickets';
import { Conflict, NotAllowed } from '../errors/domain';
import { auditDeleted, auditUpdated } from './audit';
import { AUDIT_COMMENT, AUDIT_TIME, type Author } from './ticket-activity';
import { COMMENT_SELECT, TIME_ENTRY_SELECT, toComment, toTimeEntry, type CommentRow, type TimeEntryRow } from './rows';
import { assignments, columnOf, conditionsSql, parameters, type Condition } from './sql';
import { unlessStale, updateRecord, versionMatches } from './versions';
import { refuseLockedWeek, weeksOpen } from './timesheets/lock';

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

const COMMENT_COLUMNS = { body: 'body' };
const TIME_COLUMNS = { workDate: 'work_date', minutes: 'minutes', note: 'note', billable: 'billable' };

/** Its ticket, and its author unless the corrector may correct others' rows. */
const owned =
  (target: Target, by: Corrector): Condition =>
  (bind, row) =>
    `${columnOf(row, 'ticket_id')} = ${bind(target.ticketId)} AND (${columnOf(row, 'user_id')} = ${bind(by.actorId)} OR ${bind(by.mayCorrectOthers ? 1 : 0)} = 1)`;

/** Who may change the row, at the version they saw: the rule of every correction. */
const mayCorrect = (target: Target, by: Corrector) => [owned(target, by), versionMatches(target.version)];

/** A corrected entry must keep the person's day at 24 hours or less. */
const dayFits =
  (changes: TimeEntryChanges): Condition =>
  (bind, row) =>
    `(SELECT coalesce(sum(o.minutes), 0) FROM time_entries o
     WHERE o.user_id = ${columnOf(row, 'user_id')} AND o.work_date = coalesce(${bind(changes.workDate ?? null)}, ${columnOf(row, 'work_date')}) AND o.id <> ${columnOf(row, 'id')})
   + coalesce(${bind(changes.minutes ?? null)}, ${columnOf(row, 'minutes')}) <= ${MINUTES_PER_DAY}`;

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
 * version (412), someone else's row (403), a locked week (409, `lockedDays` of a time entry);
 * otherwise `otherwise` names the rule it broke.
 */
const refusal = async <T extends { userId: number | null; version: number }>(
  db: D1Database,
  current: T | null,
  target: Target,
  by: Corrector,
  otherwise: string,
  lockedDays: (string | undefined)[] = [],
) => {
  if (!unlessStale(current, target.version)) return null;
  if (current && current.userId !== by.actorId && !by.mayCorrectOthers) throw new NotAllowed('correctOthersActivity');
  if (current?.userId) await refuseLockedWeek(db, current.userId, lockedDays);
  throw new Conflict(otherwise);
};

const CHANGED_MEANWHILE = 'It changed meanwhile; reload it and try again';

export const updateComment = async (db: D1Database, target: Target, by: Corrector, { body }: CommentPayload) => {
  const where = mayCorrect(target, by);
  const [, result] = await db.batch([
    auditUpdated(db, by, { ...AUDIT_COMMENT, action: 'comment_edit', id: target.id, values: { body }, where }),
    updateRecord(db, { table: 'ticket_comments', id: target.id, set: assignments({ body }, COMMENT_COLUMNS), where }),
  ]);
  const current = await findComment(db, target);
  if ((result?.meta.changes ?? 0) > 0) return current;
  return refusal(db, current, target, by, CHANGED_MEANWHILE);
};

/** A comment's or time entry's delete, with its entry in the ticket's history. */
const deleteOne = async (db: D1Database, kind: 'comment' | 'time', target: Target, by: Corrector) => {
  const { table, audit, action, find } =
    kind === 'comment'
      ? { table: 'ticket_comments', audit: AUDIT_COMMENT, action: 'comment_delete' as const, find: findComment }
      : { table: 'time_entries', audit: AUDIT_TIME, action: 'time_delete' as const, find: findTimeEntry };
  // Time in a submitted or approved week stays as it is (docs/architecture.md#timesheets).
  const where = kind === 'time' ? [...mayCorrect(target, by), weeksOpen(undefined)] : mayCorrect(target, by);
  const { params, bind } = parameters([target.id]);
  const [, result] = await db.batch([
    auditDeleted(db, by, { ...audit, action, id: target.id, where }),
    db.prepare(`DELETE FROM ${table} WHERE id = ?1 AND ${conditionsSql(where, bind, table)}`).bind(...params),
  ]);
  if ((result?.meta.changes ?? 0) > 0) return true;
  const current = await find(db, target);
  const day = current && 'workDate' in current ? current.workDate : undefined;
  return (await refusal(db, current, target, by, CHANGED_MEANWHILE, [day])) !== null;
};

export const deleteComment = (db: D1Database, target: Target, by: Corrector) => deleteOne(db, 'comment', target, by);

export const updateTimeEntry = async (db: D1Database, target: Target, by: Corrector, changes: TimeEntryChanges) => {
  const where = [...mayCorrect(target, by), dayFits(changes), weeksOpen(changes.workDate)];
  const [, result] = await db.batch([
    auditUpdated(db, by, { ...AUDIT_TIME, action: 'time_edit', id: target.id, values: changes, where }),
    updateRecord(db, { table: 'time_entries', id: target.id, set: assignments(changes, TIME_COLUMNS), where }),
  ]);
  const current = await findTimeEntry(db, target);
  if ((result?.meta.changes ?? 0) > 0) return current;
  const lockedDays = [current?.workDate, changes.workDate];
  return refusal(db, current, target, by, `Time logged on ${changes.workDate ?? current?.workDate} would come to more than 24 hours`, lockedDays);
};

export const deleteTimeEntry = (db: D1Database, target: Target, by: Corrector) => deleteOne(db, 'time', target, by);
