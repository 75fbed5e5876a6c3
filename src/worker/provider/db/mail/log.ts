import type { MailLogDetail, MailLogEntry, MailStatus } from '../../../../shared/mail';
import type { MailLogQuery } from '../../../../shared/schemas/mail';
import { NotFound } from '../../errors/domain';
import { readPage } from '../pagination';
import { whereSql } from '../sql';

interface MailRow {
  id: number;
  created_at: string;
  to: string;
  subject: string;
  kind: string;
  ticket_id: number | null;
  reply_to: string | null;
  status: MailStatus;
  attempts: number;
  last_error: string | null;
  sent_at: string | null;
  text?: string | null;
}

const ENTRY_COLUMNS = 'm.id, m.created_at, m."to", m.subject, m.kind, m.ticket_id, m.reply_to, m.status, m.attempts, m.last_error, m.sent_at';

const toEntry = (row: MailRow): MailLogEntry => ({
  id: row.id,
  at: row.created_at,
  to: row.to,
  subject: row.subject,
  kind: row.kind,
  ticketId: row.ticket_id,
  replyTo: row.reply_to,
  status: row.status,
  attempts: row.attempts,
  lastError: row.last_error,
  sentAt: row.sent_at,
});

/** One page of the mail log (docs/api.md#mail), newest first; bodies are left out of the list. */
export const listMail = async (db: D1Database, query: MailLogQuery) => {
  const list = { select: `SELECT ${ENTRY_COLUMNS} FROM mail_outbox m`, counted: 'mail_outbox m', orderBy: 'm.id DESC', ...whereSql([query.status && ((bind) => `m.status = ${bind(query.status)}`)]) };
  return (await readPage(db, list, query, (rows: MailRow[]) => rows.map(toEntry))).page;
};

/** One mail with its plain-text body (null when none is kept). */
export const findMail = async (db: D1Database, id: number): Promise<MailLogDetail> => {
  const row = await db.prepare(`SELECT ${ENTRY_COLUMNS}, m.text FROM mail_outbox m WHERE m.id = ?1`).bind(id).first<MailRow>();
  if (!row) throw new NotFound('Mail not found');
  return { ...toEntry(row), text: row.text ?? null };
};
