import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { RETRY_MINUTES, sendDueMail, type OutgoingMail } from '../../src/worker/provider/db/mail/delivery';
import { queueMailStatement } from '../../src/worker/provider/db/mail/outbox';

const queue = async (subject: string) =>
  (await queueMailStatement(env.DB, { to: 'ann@example.com', subject, kind: 'assigned', ticketId: 1, replyTo: null, text: 't', html: '<p>t</p>', requestId: null }).run()).meta.last_row_id;
const rowOf = (id: number) => env.DB.prepare('SELECT status, attempts, last_error, next_attempt_at, sent_at FROM mail_outbox WHERE id = ?1').bind(id).first<{ status: string; attempts: number; last_error: string | null; next_attempt_at: string | null; sent_at: string | null }>();
const MINUTE = 60_000;

describe('sending the outbox', () => {
  // Each test sees only its own rows: earlier ones are marked sent so they are never due.
  beforeEach(async () => {
    await env.DB.prepare("UPDATE mail_outbox SET status = 'sent' WHERE status = 'queued'").run();
  });

  it('sends a due mail once and marks it sent', async () => {
    const id = await queue('[#1] Sent');
    const sent: OutgoingMail[] = [];
    const now = Date.now() + MINUTE;
    await sendDueMail(env.DB, async (mail) => void sent.push(mail), now);
    await sendDueMail(env.DB, async (mail) => void sent.push(mail), now + MINUTE);
    expect(sent.map((mail) => mail.id)).toEqual([id]);
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 1, sent_at: new Date(now).toISOString() });
  });

  it('retries a failing send after 1, 5, 30, 120 and 720 minutes, then marks it failed', async () => {
    const id = await queue('[#1] Failing');
    let now = Date.now() + MINUTE;
    const waits: number[] = [];
    for (let attempt = 0; attempt <= RETRY_MINUTES.length; attempt++) {
      await sendDueMail(env.DB, () => Promise.reject(new Error('mail server said no')), now);
      const row = await rowOf(id);
      expect(row?.attempts).toBe(attempt + 1);
      expect(row?.last_error).toBe('mail server said no');
      if (!row?.next_attempt_at) break;
      const next = Date.parse(row.next_attempt_at);
      waits.push((next - now) / MINUTE);
      // Just before it is due nothing is sent; then the clock moves to the due time.
      await sendDueMail(env.DB, () => Promise.reject(new Error('too early')), next - 1);
      expect((await rowOf(id))?.attempts).toBe(attempt + 1);
      now = next;
    }
    expect(waits).toEqual([1, 5, 30, 120, 720]);
    expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 6, next_attempt_at: null });
  });

  it('two runs at once send each mail once', async () => {
    const ids = [await queue('[#1] A'), await queue('[#1] B'), await queue('[#1] C')];
    const sent: number[] = [];
    const now = Date.now() + MINUTE;
    await Promise.all([sendDueMail(env.DB, async (mail) => void sent.push(mail.id), now), sendDueMail(env.DB, async (mail) => void sent.push(mail.id), now)]);
    expect([...sent].sort((a, b) => a - b)).toEqual(ids);
  });
});
