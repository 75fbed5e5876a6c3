import type { ApiTokenAccess } from '../../../shared/schemas/api-tokens';
import type { ApiToken, Role } from '../../../shared/types';
import { Conflict, NotFound } from '../errors/domain';
import { auditCreated, auditDeleted, jsonColumn, type AuditContext, type AuditFields } from './audit';
import { written } from './rows';

/**
 * Personal API tokens (docs/api.md#api-tokens). A token holds its person's session version from
 * when it was made; deactivation, a role change and a new password raise the person's, so every
 * query here that reads a token as usable requires the two to be equal, and such a write ends the
 * person's tokens without knowing they exist.
 */

/** How many tokens one person may hold, so the Settings list stays a list. */
export const API_TOKENS_PER_PERSON = 50;
export const TOO_MANY_TOKENS = `You hold ${API_TOKENS_PER_PERSON} API tokens; remove one first`;

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
/** The minute of `at` (default now) as `lastUsedAt` keeps it: ISO with zero seconds. */
export const minuteOf = (at = Date.now()) => new Date(Math.floor(at / 60_000) * 60_000).toISOString();
/** The token `t` of the user `u` was not ended by a change to that person (see above). */
const NOT_ENDED = 'u.session_version = t.session_version AND u.is_active = 1';

interface ApiTokenRow {
  id: number;
  name: string;
  access: ApiTokenAccess;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

interface OwnedRow extends ApiTokenRow {
  user_id: number;
  first_name: string;
  surname: string;
  email: string;
}

const TOKEN_COLUMNS = 't.id, t.name, t.access, t.created_at, t.expires_at, t.last_used_at';

const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  access: row.access,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
});

/** What a token's entries record, in its owner's history (entity `user`): its name and access, never the hash. */
const TOKEN_AUDIT_FIELDS: AuditFields = { token: jsonColumn('name'), access: jsonColumn('access') };

export interface NewApiToken {
  name: string;
  access: ApiTokenAccess;
  expiresInDays: number;
  tokenHash: string;
}

/**
 * Saves a token for the signed-in person, with its `token_add` entry, in one batch. The INSERT
 * takes the session version the caller's session holds and runs only while the person is still
 * on it (and under the per-person cap), so a session ended a moment ago cannot mint a token that
 * outlives it. The batch first drops the person's tokens already ended that way: nothing shows or
 * accepts them any more.
 */
export const createApiToken = async (db: D1Database, token: NewApiToken, sessionVersion: number, audit: AuditContext & { actorId: number }) => {
  const userId = audit.actorId;
  const [, inserted] = await db.batch<ApiTokenRow>([
    db.prepare('DELETE FROM api_tokens WHERE user_id = ?1 AND session_version IS NOT (SELECT session_version FROM users WHERE id = ?1)').bind(userId),
    db
      .prepare(
        `INSERT INTO api_tokens (user_id, name, access, token_hash, session_version, created_at, expires_at)
         SELECT id, ?2, ?3, ?4, session_version, ${NOW}, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ?5 || ' days')
         FROM users WHERE id = ?1 AND is_active = 1 AND session_version = ?6
           AND (SELECT count(*) FROM api_tokens WHERE user_id = ?1) < ?7
         RETURNING id, name, access, created_at, expires_at, last_used_at`,
      )
      .bind(userId, token.name, token.access, token.tokenHash, token.expiresInDays, sessionVersion, API_TOKENS_PER_PERSON),
    auditCreated(db, audit, { action: 'token_add', entity: 'user', table: 'api_tokens', fields: TOKEN_AUDIT_FIELDS, entityColumn: 'user_id' }),
  ]);
  const row = inserted?.results[0];
  // The session was checked just before; what stops the INSERT now is the cap.
  if (!row) throw new Conflict(TOO_MANY_TOKENS);
  return toApiToken(written(row, 'api token'));
};

/** The person's own usable tokens (expired ones included, until removed), oldest first. */
export const listApiTokens = async (db: D1Database, userId: number) =>
  (
    await db
      .prepare(`SELECT ${TOKEN_COLUMNS} FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.user_id = ?1 AND ${NOT_ENDED} ORDER BY t.id`)
      .bind(userId)
      .all<ApiTokenRow>()
  ).results.map(toApiToken);

/** Everyone's usable tokens with their owners (admins), by owner then age. */
export const listAllApiTokens = async (db: D1Database) =>
  (
    await db
      .prepare(
        `SELECT ${TOKEN_COLUMNS}, t.user_id, u.first_name, u.surname, u.email
         FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE ${NOT_ENDED} ORDER BY u.surname, u.first_name, t.user_id, t.id`,
      )
      .all<OwnedRow>()
  ).results.map((row) => ({ ...toApiToken(row), owner: { id: row.user_id, firstName: row.first_name, surname: row.surname, email: row.email } }));

/**
 * Removes a token with its `token_remove` entry in the owner's history; unless `anyOwner`
 * (admins), only one of the actor's own: anyone else's is not found.
 */
export const removeApiToken = async (db: D1Database, id: number, anyOwner: boolean, audit: AuditContext & { actorId: number }) => {
  const owner = anyOwner ? null : audit.actorId;
  const [, deleted] = await db.batch([
    auditDeleted(db, audit, {
      action: 'token_remove',
      entity: 'user',
      table: 'api_tokens',
      id,
      fields: TOKEN_AUDIT_FIELDS,
      entityColumn: 'user_id',
      where: [owner === null ? false : (bind) => `r.user_id = ${bind(owner)}`],
    }),
    db.prepare('DELETE FROM api_tokens WHERE id = ?1 AND (?2 IS NULL OR user_id = ?2)').bind(id, owner),
  ]);
  if (!deleted?.meta.changes) throw new NotFound('API token not found');
};

/** A presented token that may be used: whose it is, their role, and whether its minute of use is unrecorded. */
export interface LiveApiToken {
  id: number;
  userId: number;
  access: ApiTokenAccess;
  role: Role;
  /** `lastUsedAt` is not this minute yet: touchApiToken writes it. */
  stale: boolean;
}

/**
 * The token with this hash while it may be used: unexpired, and its person active and still on
 * the token's session version. One query, which also says whether this minute's use is recorded.
 */
export const findApiToken = async (db: D1Database, tokenHash: string, minute: string): Promise<LiveApiToken | null> => {
  const row = await db
    .prepare(
      `SELECT t.id, t.user_id, t.access, u.role, t.last_used_at IS NOT ?2 AS stale
       FROM api_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_hash = ?1 AND t.expires_at > ${NOW} AND ${NOT_ENDED}`,
    )
    .bind(tokenHash, minute)
    .first<{ id: number; user_id: number; access: ApiTokenAccess; role: Role; stale: number }>();
  return row ? { id: row.id, userId: row.user_id, access: row.access, role: row.role, stale: row.stale === 1 } : null;
};

/**
 * Records this minute as the token's last use. Guarded by the minute itself, so of the requests
 * that found it stale in one minute only the first writes the row; the rest change nothing.
 */
export const touchApiToken = (db: D1Database, id: number, minute: string) =>
  db.prepare('UPDATE api_tokens SET last_used_at = ?2 WHERE id = ?1 AND last_used_at IS NOT ?2').bind(id, minute).run();
