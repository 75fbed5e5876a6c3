import type { User } from '../../../shared/types';
import type { UserListQuery } from '../../../shared/schemas/users';
import { containsPattern, pageOf, pageWindow } from '../http/pagination';
import { NOW_SQL, uniqueOr409 } from './sql';

interface UserRow {
  id: number;
  first_name: string;
  surname: string;
  email: string;
  is_active: number;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, first_name, surname, email, is_active, created_at, updated_at';

const toUser = (row: UserRow): User => ({
  id: row.id,
  firstName: row.first_name,
  surname: row.surname,
  email: row.email,
  isActive: row.is_active === 1,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const EMAIL_TAKEN = 'Email address is already in use';

export const findUser = async (db: D1Database, id: number) => {
  const row = await db.prepare(`SELECT ${COLUMNS} FROM users WHERE id = ?1`).bind(id).first<UserRow>();
  return row ? toUser(row) : null;
};

export const findCredentials = (db: D1Database, email: string) =>
  db
    .prepare(`SELECT ${COLUMNS}, password_hash FROM users WHERE email = ?1`)
    .bind(email)
    .first<UserRow & { password_hash: string }>()
    .then((row) => (row ? { user: toUser(row), passwordHash: row.password_hash } : null));

/** Each word of `q` in the first name, the surname or the email, so a full name finds its person. */
const userFilters = ({ q, status }: UserListQuery) => {
  const words = (q ?? '').split(/\s+/).filter(Boolean).slice(0, 5);
  const clauses = words.map(
    (_, i) => `(first_name LIKE ?${i + 1} ESCAPE '\\' OR surname LIKE ?${i + 1} ESCAPE '\\' OR email LIKE ?${i + 1} ESCAPE '\\')`,
  );
  if (status) clauses.push(`is_active = ${status === 'active' ? 1 : 0}`);
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params: words.map(containsPattern) };
};

export const listUsers = async (db: D1Database, query: UserListQuery) => {
  const { limit, offset } = pageWindow(query);
  const { where, params } = userFilters(query);
  const [rows, count] = await db.batch([
    db
      .prepare(`SELECT ${COLUMNS} FROM users ${where} ORDER BY surname COLLATE NOCASE, first_name COLLATE NOCASE, id LIMIT ${limit} OFFSET ${offset}`)
      .bind(...params),
    db.prepare(`SELECT count(*) AS total FROM users ${where}`).bind(...params),
  ]);
  const total = (count.results[0] as { total: number } | undefined)?.total ?? 0;
  return pageOf((rows.results as UserRow[]).map(toUser), total, query);
};

export interface NewUser {
  firstName: string;
  surname: string;
  email: string;
  passwordHash: string;
  isActive?: boolean;
}

export const insertUser = async (db: D1Database, user: NewUser) => {
  const row = await uniqueOr409(
    db
      .prepare(
        `INSERT INTO users (first_name, surname, email, password_hash, is_active) VALUES (?1, ?2, ?3, ?4, ?5) RETURNING ${COLUMNS}`,
      )
      .bind(user.firstName, user.surname, user.email, user.passwordHash, user.isActive === false ? 0 : 1)
      .first<UserRow>(),
    EMAIL_TAKEN,
  );
  if (!row) throw new Error('insert returned no row');
  return toUser(row);
};

export interface UserChanges {
  firstName?: string;
  surname?: string;
  email?: string;
  isActive?: boolean;
}

/** Applies only the given fields; returns null when the id is unknown. */
export const updateUser = async (db: D1Database, id: number, changes: UserChanges) => {
  const row = await uniqueOr409(
    db
      .prepare(
        `UPDATE users SET
           first_name = coalesce(?2, first_name),
           surname = coalesce(?3, surname),
           email = coalesce(?4, email),
           is_active = coalesce(?5, is_active),
           updated_at = ${NOW_SQL}
         WHERE id = ?1 RETURNING ${COLUMNS}`,
      )
      .bind(
        id,
        changes.firstName ?? null,
        changes.surname ?? null,
        changes.email ?? null,
        changes.isActive === undefined ? null : Number(changes.isActive),
      )
      .first<UserRow>(),
    EMAIL_TAKEN,
  );
  return row ? toUser(row) : null;
};

export const updatePasswordHash = (db: D1Database, id: number, passwordHash: string) =>
  db.prepare(`UPDATE users SET password_hash = ?2, updated_at = ${NOW_SQL} WHERE id = ?1`).bind(id, passwordHash).run();

export const countUsers = async (db: D1Database) =>
  (await db.prepare('SELECT count(*) AS total FROM users').first<number>('total')) ?? 0;
