import type { Role } from '../../../shared/types';
import { DEFAULT_ROLE, type UserListQuery } from '../../../shared/schemas/users';
import { Conflict, Invalid } from '../errors/domain';
import { readPage } from './pagination';
import { auditCreated, auditUpdated, jsonColumn, jsonFlag, type AuditContext, type AuditFields } from './audit';
import { USER_COLUMNS, toUser, written, type UserRow } from './rows';
import { assignments, containsSql, uniqueOrConflict, whereSql, type Bind, type UniqueField } from './sql';
import { unlessStale, updateRecord, versionMatches } from './versions';
import { userDeactivatedEvent } from './webhook-events';

export const EMAIL_TAKEN: UniqueField = { field: 'email', detail: 'Email address is already in use' };

export const findUser = async (db: D1Database, id: number) => {
  const row = await db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?1`).bind(id).first<UserRow>();
  return row ? toUser(row) : null;
};

export const findCredentials = (db: D1Database, email: string) =>
  db
    .prepare(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = ?1`)
    .bind(email)
    .first<UserRow & { password_hash: string }>()
    .then((row) => (row ? { user: toUser(row), sessionVersion: row.session_version, passwordHash: row.password_hash } : null));

/** Each word of `q` in the first name, the surname or the email, so a full name finds its person. */
const userFilters = ({ q, status }: UserListQuery) => {
  const words = (q ?? '').split(/\s+/).filter(Boolean).slice(0, 5);
  return whereSql([
    ...words.map((word) => (bind: Bind) => {
      const value = bind(word);
      return ['first_name', 'surname', 'email'].map((column) => containsSql(column, value)).join(' OR ');
    }),
    status && `is_active = ${status === 'active' ? 1 : 0}`,
  ]);
};

export const listUsers = async (db: D1Database, query: UserListQuery) => {
  const list = { select: `SELECT ${USER_COLUMNS} FROM users`, counted: 'users', orderBy: 'surname COLLATE NOCASE, first_name COLLATE NOCASE, id', ...userFilters(query) };
  return (await readPage(db, list, query, (rows: UserRow[]) => rows.map(toUser))).page;
};

/** What a user's audit entries record; never the password hash. */
export const USER_AUDIT_FIELDS: AuditFields = {
  firstName: jsonColumn('first_name'),
  surname: jsonColumn('surname'),
  email: jsonColumn('email'),
  role: jsonColumn('role'),
  isActive: jsonFlag('is_active'),
  timeZone: jsonColumn('time_zone'),
};
const PASSWORD_MARK = ['password'];

export interface NewUser {
  firstName: string;
  surname: string;
  email: string;
  passwordHash: string;
  isActive?: boolean;
  role?: Role;
}

export const insertUser = async (db: D1Database, user: NewUser, audit: AuditContext) => {
  const [inserted] = await uniqueOrConflict(
    db.batch<UserRow>([
      db
        .prepare(
          `INSERT INTO users (first_name, surname, email, password_hash, is_active, role) VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING ${USER_COLUMNS}`,
        )
        .bind(user.firstName, user.surname, user.email, user.passwordHash, user.isActive === false ? 0 : 1, user.role ?? DEFAULT_ROLE),
      auditCreated(db, audit, { entity: 'user', table: 'users', fields: USER_AUDIT_FIELDS }),
    ]),
    EMAIL_TAKEN,
  );
  return toUser(written(inserted?.results[0], 'user'));
};

const COLUMNS = { firstName: 'first_name', surname: 'surname', email: 'email', isActive: 'is_active', role: 'role', timeZone: 'time_zone', passwordHash: 'password_hash' };

export interface UserChanges {
  firstName?: string;
  surname?: string;
  email?: string;
  isActive?: boolean;
  role?: Role;
  timeZone?: string;
  passwordHash?: string;
}

// Taking away the last active admin (deactivating or demoting them) would leave nobody able to
// manage users. Checked in the UPDATE's own WHERE, where D1 runs writes one at a time, so two
// admins demoting each other at once cannot both succeed.
const KEEPS_AN_ADMIN = "NOT (role = 'admin' AND is_active = 1) OR (SELECT count(*) FROM users WHERE role = 'admin' AND is_active = 1) > 1";
export const LAST_ADMIN = 'The last active admin cannot be deactivated or given another role';

/**
 * The session version's bump, when the change ends the user's other sessions: a new password, or
 * an active flag or role that differs from the stored one (compared in the UPDATE, against the row).
 */
const endsSessions =
  ({ isActive, role, passwordHash }: UserChanges) =>
  (bind: Bind) => {
    const ending = [
      isActive !== undefined && `is_active IS NOT ${bind(Number(isActive))}`,
      role !== undefined && `role IS NOT ${bind(role)}`,
      passwordHash !== undefined && 'true',
    ].filter(Boolean);
    return `session_version = session_version + (${ending.join(' OR ') || 'false'})`;
  };

const removesAdmin = (changes: UserChanges) => changes.isActive === false || (changes.role !== undefined && changes.role !== 'admin');

/**
 * An admin's edit of a user: nobody deactivates their own account, and an edit that only resets
 * the password reads as a password entry in the user's history.
 */
export const editUser = (db: D1Database, id: number, changes: UserChanges, audit: AuditContext, version?: number) => {
  if (id === audit.actorId && changes.isActive === false) throw new Invalid('You cannot deactivate your own account');
  const { passwordHash, ...rest } = changes;
  const action = passwordHash !== undefined && Object.values(rest).every((value) => value === undefined) ? 'password' : 'update';
  return updateUser(db, id, changes, audit, { action, version });
};

/**
 * Applies only the given fields and records them in the audit log, in one batch. Deactivation,
 * a role change and a new password bump the session version in the same write, which ends the
 * user's other sessions. Returns null when the id is unknown, 409 for the last active admin, and
 * with `version` (If-Match) StaleVersion when the user is no longer at it.
 */
export const updateUser = async (
  db: D1Database,
  id: number,
  changes: UserChanges,
  audit: AuditContext,
  { action = 'update', version }: { action?: 'update' | 'password'; version?: number } = {},
) => {
  const removing = removesAdmin(changes);
  const where = [versionMatches(version), removing && KEEPS_AN_ADMIN];
  const [, updated] = await uniqueOrConflict(
    db.batch<UserRow>([
      auditUpdated(db, audit, {
        action,
        entity: 'user',
        table: 'users',
        id,
        fields: USER_AUDIT_FIELDS,
        values: changes,
        where,
        marks: changes.passwordHash === undefined ? [] : PASSWORD_MARK,
      }),
      updateRecord(db, { table: 'users', id, set: assignments(changes, COLUMNS), computed: [endsSessions(changes)], where, returning: USER_COLUMNS }),
      ...(changes.isActive === false ? [userDeactivatedEvent(db, id, audit)] : []),
    ]),
    EMAIL_TAKEN,
  );
  const row = updated?.results[0];
  if (row) return { user: toUser(row), sessionVersion: row.session_version };
  // The WHERE matched nothing: no such user, a stale version, or the last active admin kept.
  if (unlessStale(await findUser(db, id), version) && removing) throw new Conflict(LAST_ADMIN);
  return null;
};

export const countUsers = async (db: D1Database) =>
  (await db.prepare('SELECT count(*) AS total FROM users').first<number>('total')) ?? 0;
