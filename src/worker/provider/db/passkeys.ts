import type { Passkey } from '../../../shared/types';
import { Invalid, NotFound } from '../errors/domain';
import { auditCreated, auditDeleted, auditUpdated, jsonColumn, type AuditContext, type AuditFields } from './audit';
import { USER_COLUMNS, toUser, written, type UserRow } from './rows';
import { uniqueOrConflict } from './sql';

/**
 * Passkeys and their challenges (docs/api.md#passkeys). A challenge is consumed by the very batch
 * that uses it: its DELETE is the batch's first statement and the write after it runs only when
 * that DELETE removed a row (`changes() > 0`). D1 runs batches one at a time, so of two requests
 * answering one challenge exactly one gets through.
 */

/** How long a challenge may be answered (DESIGN: 5 minutes), also the browser's own timeout. */
export const CHALLENGE_SECONDS = 5 * 60;

/** How a passkey sign-in's entries say how the person came in. */
export const PASSKEY_METHOD: Record<string, [null, string]> = { method: [null, 'passkey'] };

/** A passkey's key algorithm, as COSE numbers it: ES256 (-7) or RS256 (-257), as migration 0021 allows. */
export type PublicKeyAlgorithm = -7 | -257;

/** A checked new credential (auth/webauthn.ts reads it) and the challenge it answered. */
export interface NewPasskey {
  challenge: string;
  credentialId: string;
  publicKey: string;
  algorithm: PublicKeyAlgorithm;
  signCount: number;
  name: string;
  transports: string[];
}

export type ChallengePurpose = 'register' | 'login';

const nowSeconds = () => Math.floor(Date.now() / 1000);

interface PasskeyRow {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

const PASSKEY_COLUMNS = 'id, name, created_at, last_used_at';

const toPasskey = (row: PasskeyRow): Passkey => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at });

/**
 * What a passkey's entries record, in its owner's history (entity `user`, the owner's id): its
 * name. The key itself is never logged.
 */
const PASSKEY_AUDIT_FIELDS: AuditFields = { passkey: jsonColumn('name') };

/** Stores a new challenge for `purpose`, pruning every expired one in the same batch. */
export const createChallenge = async (db: D1Database, challenge: string, purpose: ChallengePurpose, userId: number | null) => {
  const now = nowSeconds();
  await db.batch([
    db.prepare('DELETE FROM passkey_challenges WHERE expires_at <= ?1').bind(now),
    db.prepare('INSERT INTO passkey_challenges (challenge, purpose, user_id, expires_at) VALUES (?1, ?2, ?3, ?4)').bind(challenge, purpose, userId, now + CHALLENGE_SECONDS),
  ]);
};

/** Consumes a live challenge of this purpose (and person, for a registration). */
const consumeChallenge = (db: D1Database, challenge: string, purpose: ChallengePurpose, userId: number | null) =>
  db
    .prepare('DELETE FROM passkey_challenges WHERE challenge = ?1 AND purpose = ?2 AND user_id IS ?3 AND expires_at > ?4')
    .bind(challenge, purpose, userId, nowSeconds());

/** A challenge answered wrongly is used up all the same: it may not be tried again. */
export const discardChallenge = async (db: D1Database, challenge: string, purpose: ChallengePurpose, userId: number | null, ...also: D1PreparedStatement[]) => {
  await db.batch([db.prepare('DELETE FROM passkey_challenges WHERE challenge = ?1 AND purpose = ?2 AND user_id IS ?3').bind(challenge, purpose, userId), ...also]);
};

export const CHALLENGE_GONE = 'The passkey request has expired or was already used; try again';

/** The person's own passkeys, oldest first. */
export const listPasskeys = async (db: D1Database, userId: number) =>
  (await db.prepare(`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE user_id = ?1 ORDER BY id`).bind(userId).all<PasskeyRow>()).results.map(toPasskey);

/** The person's credentials, for the browser not to make a second passkey on an authenticator that has one. */
export const credentialsOf = async (db: D1Database, userId: number) =>
  (await db.prepare('SELECT credential_id, transports FROM passkeys WHERE user_id = ?1 ORDER BY id').bind(userId).all<{ credential_id: string; transports: string }>()).results.map(
    (row) => ({ type: 'public-key' as const, id: row.credential_id, transports: JSON.parse(row.transports) as string[] }),
  );

export const PASSKEY_TAKEN = 'This passkey is already registered';

/** Saves a checked new credential, consuming its registration challenge in the same batch, with its audit entry. */
export const addPasskey = async (
  db: D1Database,
  credential: NewPasskey,
  audit: AuditContext & { actorId: number },
) => {
  const userId = audit.actorId;
  const [consumed, inserted] = await uniqueOrConflict(
    db.batch<PasskeyRow>([
      consumeChallenge(db, credential.challenge, 'register', userId),
      db
        .prepare(
          `INSERT INTO passkeys (user_id, credential_id, public_key, algorithm, sign_count, name, transports)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7 WHERE changes() > 0 RETURNING ${PASSKEY_COLUMNS}`,
        )
        .bind(userId, credential.credentialId, credential.publicKey, credential.algorithm, credential.signCount, credential.name, JSON.stringify(credential.transports)),
      auditCreated(db, audit, { action: 'passkey_add', entity: 'user', table: 'passkeys', fields: PASSKEY_AUDIT_FIELDS, entityColumn: 'user_id' }),
    ]),
    { field: 'response', detail: PASSKEY_TAKEN },
  );
  if (!consumed?.meta.changes) throw new Invalid(CHALLENGE_GONE, { response: [CHALLENGE_GONE] });
  return toPasskey(written(inserted?.results[0], 'passkey'));
};

const ownedBy = (userId: number) => (bind: (value: unknown) => string) => `r.user_id = ${bind(userId)}`;

/** Renames one of the person's own passkeys; anyone else's is not found. */
export const renamePasskey = async (db: D1Database, id: number, name: string, audit: AuditContext & { actorId: number }) => {
  const [, updated] = await db.batch<PasskeyRow>([
    auditUpdated(db, audit, { entity: 'user', table: 'passkeys', id, fields: PASSKEY_AUDIT_FIELDS, values: { passkey: name }, where: [ownedBy(audit.actorId)], entityColumn: 'user_id' }),
    db.prepare(`UPDATE passkeys SET name = ?1 WHERE id = ?2 AND user_id = ?3 RETURNING ${PASSKEY_COLUMNS}`).bind(name, id, audit.actorId),
  ]);
  const row = updated?.results[0];
  if (!row) throw new NotFound('Passkey not found');
  return toPasskey(row);
};

/** Removes one of the person's own passkeys; anyone else's is not found. */
export const removePasskey = async (db: D1Database, id: number, audit: AuditContext & { actorId: number }) => {
  const [, deleted] = await db.batch([
    auditDeleted(db, audit, { action: 'passkey_remove', entity: 'user', table: 'passkeys', id, fields: PASSKEY_AUDIT_FIELDS, entityColumn: 'user_id', where: [ownedBy(audit.actorId)] }),
    db.prepare('DELETE FROM passkeys WHERE id = ?1 AND user_id = ?2').bind(id, audit.actorId),
  ]);
  if (!deleted?.meta.changes) throw new NotFound('Passkey not found');
};

export interface StoredPasskey {
  id: number;
  publicKey: string;
  algorithm: PublicKeyAlgorithm;
  signCount: number;
  user: ReturnType<typeof toUser>;
  sessionVersion: number;
}

/** The passkey a sign-in names, with its owner as a sign-in needs them. */
export const findPasskeyByCredential = async (db: D1Database, credentialId: string): Promise<StoredPasskey | null> => {
  const row = await db
    .prepare(
      `SELECT p.id AS passkey_id, p.public_key, p.algorithm, p.sign_count, u.${USER_COLUMNS.split(', ').join(', u.')}
       FROM passkeys p JOIN users u ON u.id = p.user_id WHERE p.credential_id = ?1`,
    )
    .bind(credentialId)
    .first<UserRow & { passkey_id: number; public_key: string; algorithm: PublicKeyAlgorithm; sign_count: number }>();
  if (!row) return null;
  return { id: row.passkey_id, publicKey: row.public_key, algorithm: row.algorithm, signCount: row.sign_count, user: toUser(row), sessionVersion: row.session_version };
};

/**
 * The sign-in's write: consumes the challenge, raises the counter and stamps the passkey as used,
 * and writes the `login` entry, each only if the one before it happened. The UPDATE checks again,
 * against the stored row, that the counter rises and the account is active, so two sign-ins
 * racing with one authenticator's answers cannot both pass. Says which step stopped it.
 */
export const recordPasskeyLogin = async (
  db: D1Database,
  { passkey, challenge, signCount }: { passkey: StoredPasskey; challenge: string; signCount: number },
  { requestId }: Pick<AuditContext, 'requestId'>,
): Promise<'ok' | 'challenge' | 'refused'> => {
  const userId = passkey.user.id;
  const [consumed, updated] = await db.batch([
    consumeChallenge(db, challenge, 'login', null),
    db
      .prepare(
        `UPDATE passkeys SET sign_count = ?1, last_used_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ?2 AND changes() > 0 AND (?1 > sign_count OR (?1 = 0 AND sign_count = 0))
           AND (SELECT is_active FROM users WHERE id = passkeys.user_id) = 1`,
      )
      .bind(signCount, passkey.id),
    db
      .prepare(
        `INSERT INTO audit_log (actor_id, action, entity, entity_id, changes, request_id)
         SELECT ?1, 'login', 'session', ?1, ?2, ?3 WHERE changes() > 0`,
      )
      .bind(userId, JSON.stringify(PASSKEY_METHOD), requestId),
  ]);
  if (!consumed?.meta.changes) return 'challenge';
  return updated?.meta.changes ? 'ok' : 'refused';
};
