import { SETUP_ACTOR, auditCreatedSql } from './audit';
import { uniqueOrConflict, type SqlStatement } from './sql';
import { EMAIL_TAKEN, USER_AUDIT_FIELDS } from './users';

export interface FirstAdmin {
  firstName: string;
  surname: string;
  email: string;
  /** From hashPassword (auth/password.ts), as every password the provider stores. */
  passwordHash: string;
}

/**
 * A new deployment's first admin (`npm run admin:create`): the INSERT and its audit entry, marked
 * as made by setup, to run as one transaction. An email already in use fails the INSERT on the
 * users table's unique email, so the check is the write itself. The same statements run through
 * the D1 binding locally and, inlined, through `wrangler d1 execute --remote`.
 */
export const firstAdminStatements = (admin: FirstAdmin): SqlStatement[] => [
  {
    sql: "INSERT INTO users (first_name, surname, email, password_hash, role) VALUES (?1, ?2, ?3, ?4, 'admin')",
    params: [admin.firstName, admin.surname, admin.email, admin.passwordHash],
  },
  auditCreatedSql(SETUP_ACTOR, { entity: 'user', table: 'users', fields: USER_AUDIT_FIELDS }),
];

/** Runs the statements through a D1 binding; an email in use is a Conflict. */
export const createFirstAdmin = async (db: D1Database, admin: FirstAdmin) => {
  await uniqueOrConflict(db.batch(firstAdminStatements(admin).map(({ sql, params }) => db.prepare(sql).bind(...params))), EMAIL_TAKEN);
};
