import type { TimesheetState } from '../../../../shared/types';
import { Conflict, NotFound } from '../../errors/domain';
import type { AuditContext } from '../audit';
import { NOW_SQL, parameters, type Bind } from '../sql';
import { findWeek } from './read';

/**
 * A person-week's moves (docs/architecture.md#timesheets): open or rejected → submitted by the
 * person; submitted → approved or rejected by billing or an admin, never for their own week;
 * approved → open by an admin. Each is ONE batch: its audit entries, the person's notifications
 * and the UPDATE, every statement carrying the same conditions (the weeks named, the state it
 * leaves, who may make it, read from the actor's row inside the batch), so a move that is not
 * allowed any more when it runs leaves neither a change nor an entry nor a notice.
 */

type Actor = AuditContext & { actorId: number };

export interface PersonWeek {
  userId: number;
  week: string;
}

interface Move {
  action: 'submit' | 'approve' | 'reject' | 'reopen';
  from: readonly TimesheetState[];
  to: TimesheetState;
  /** Who may make it, over the week `r` and the actor (`actor`, SQL). */
  who: (actor: string) => string;
  /** The column assignments beyond the state (?5: the reason). */
  set: string;
  reason?: string;
  notify?: 'timesheet_approved' | 'timesheet_rejected';
}

const approver = (roles: string) => (actor: string) =>
  `r.user_id <> ${actor} AND (SELECT role FROM users WHERE id = ${actor} AND is_active = 1) IN ${roles}`;

const decided = (actor: string) => `decided_by = ${actor}, decided_at = ${NOW_SQL}`;

const MOVES = {
  submit: {
    action: 'submit',
    from: ['open', 'rejected'],
    to: 'submitted',
    who: (actor) => `r.user_id = ${actor}`,
    set: `submitted_at = ${NOW_SQL}, decided_by = NULL, decided_at = NULL, reason = ''`,
  },
  approve: { action: 'approve', from: ['submitted'], to: 'approved', who: approver("('billing', 'admin')"), set: decided('?1'), notify: 'timesheet_approved' },
  reopen: { action: 'reopen', from: ['approved'], to: 'open', who: approver("('admin')"), set: decided('?1') },
} satisfies Record<string, Move>;

const rejectMove = (reason: string): Move => ({
  action: 'reject',
  from: ['submitted'],
  to: 'rejected',
  who: approver("('billing', 'admin')"),
  set: `${decided('?1')}, reason = ?5`,
  reason,
  notify: 'timesheet_rejected',
});

/**
 * The batch of one move over `weeks` (bound as one JSON array, so a hundred weeks take one value
 * each statement). ?1 actor, ?2 request id, ?3 the weeks, ?4 the new state, ?5 the reason.
 */
const moveBatch = (db: D1Database, actor: Actor, move: Move, weeks: PersonWeek[]) => {
  const statement = (sql: (bind: Bind) => string) => {
    const { params, bind } = parameters([actor.actorId, actor.requestId, JSON.stringify(weeks), move.to, move.reason ?? '']);
    const text = sql(bind);
    return db.prepare(text).bind(...params);
  };
  const matches = (bind: Bind) =>
    `(r.user_id, r.week) IN (SELECT json_extract(value, '$.userId'), json_extract(value, '$.week') FROM json_each(?3))
     AND r.state IN (${move.from.map((state) => bind(state)).join(', ')}) AND ${move.who('?1')}`;
  const reasonChange = move.reason !== undefined ? `, 'reason', json_array(r.reason, ?5)` : '';
  const batch = [
    // Entries first: they read each week as it stands just before the UPDATE (docs/architecture.md#roles-and-the-audit-log).
    statement(
      (bind) => `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
       SELECT ?1, ${bind(move.action)}, 'timesheet', r.id, json_object('state', json_array(r.state, ?4)${reasonChange}), ?2
       FROM timesheet_weeks r WHERE ${matches(bind)}`,
    ),
  ];
  const { notify } = move;
  if (notify) {
    const title = move.reason !== undefined ? `r.week || ': ' || ?5` : 'r.week';
    batch.push(
      statement(
        (bind) => `INSERT INTO notifications (user_id, kind, entity, entity_id, actor_id, title, request_id)
         SELECT r.user_id, ${bind(notify)}, 'timesheet', r.id, ?1, ${title}, ?2
         FROM timesheet_weeks r JOIN users u ON u.id = r.user_id AND u.is_active = 1 WHERE ${matches(bind)}`,
      ),
    );
  }
  batch.push(
    statement((bind) => `UPDATE timesheet_weeks AS r SET state = ?4, ${move.set} WHERE ${matches(bind)}`),
  );
  return batch;
};

/** Runs a move; the number of weeks it changed. */
const runMove = async (db: D1Database, actor: Actor, move: Move, weeks: PersonWeek[], before: D1PreparedStatement[] = []) => {
  const results = await db.batch([...before, ...moveBatch(db, actor, move, weeks)]);
  return results[results.length - 1]?.meta.changes ?? 0;
};

const VERBS: Record<Move['action'], string> = { submit: 'submitted', approve: 'approved', reject: 'rejected', reopen: 'reopened' };

/** One week's move, then the week as it stands; when nothing changed, why (read after, only to word it). */
const moveOne = async (db: D1Database, actor: Actor, move: Move, target: PersonWeek, before: D1PreparedStatement[] = []) => {
  const changed = await runMove(db, actor, move, [target], before);
  const week = await findWeek(db, target.userId, target.week);
  if (!week) throw new NotFound('Person not found');
  if (changed > 0) return week;
  if (move.from.includes(week.state)) throw new Conflict(`Week ${week.week} cannot be ${VERBS[move.action]} by you`);
  const allowed = move.from.join(' or ');
  throw new Conflict(`Week ${week.week} is ${week.state}; only ${/^[aeiou]/.test(allowed) ? 'an' : 'a'} ${allowed} week can be ${VERBS[move.action]}`);
};

/** The person submits their own week; the row is made open first when the week has none. */
export const submitWeek = (db: D1Database, actor: Actor, target: PersonWeek) =>
  moveOne(db, actor, MOVES.submit, target, [
    db.prepare('INSERT OR IGNORE INTO timesheet_weeks (user_id, week) SELECT ?1, ?2 WHERE ?1 = ?3').bind(target.userId, target.week, actor.actorId),
  ]);

export const approveWeek = (db: D1Database, actor: Actor, target: PersonWeek) => moveOne(db, actor, MOVES.approve, target);

export const rejectWeek = (db: D1Database, actor: Actor, target: PersonWeek, reason: string) => moveOne(db, actor, rejectMove(reason), target);

export const reopenWeek = (db: D1Database, actor: Actor, target: PersonWeek) => moveOne(db, actor, MOVES.reopen, target);

/** Many submitted weeks approved, or rejected with one reason, in one batch; weeks no longer submitted are left as they are. */
export const decideWeeks = async (db: D1Database, actor: Actor, weeks: PersonWeek[], reason?: string) => ({
  decided: await runMove(db, actor, reason === undefined ? MOVES.approve : rejectMove(reason), weeks),
});
