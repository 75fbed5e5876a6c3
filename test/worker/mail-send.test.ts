import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import type { Env } from '../../src/worker/env';
import { RETRY_MINUTES } from '../../src/worker/provider/db/mail/delivery';
import { mailOnSchedule } from '../../src/worker/provider/mail/send';
import { readReplyAddress } from '../../src/worker/provider/mail/reply-address';
import { call, headersOf, recorder } from './mail-support';
import { createUser, login, type TestUser } from './support';

type Person = TestUser & { token: string };
const person = async (firstName: string): Promise<Person> => {
  const user = await createUser({ firstName, surname: 'Mailed' });
  return { ...user, token: await login(user) };
};

const setDelivery = async (who: Person, status: 'instant' | 'daily' | 'off') => {
  const res = await call(recorder().env, 'users/me/notification-settings', { token: who.token, method: 'PUT', json: { assigned: 'off', mentioned: 'instant', commented: 'off', status } });
  expect(res.status).toBe(200);
};

interface OutboxRow {
  id: number;
  to: string;
  subject: string;
  kind: string;
  status: string;
  attempts: number;
  last_error: string | null;
  reply_to: string | null;
  text: string | null;
  html: string | null;
  next_attempt_at: string | null;
  digest_key: string | null;
}
const outboxOf = async (who: Person, kind?: string) =>
  (await env.DB.prepare('SELECT * FROM mail_outbox WHERE "to" = ?1 AND (?2 IS NULL OR kind = ?2) ORDER BY id').bind(who.email, kind ?? null).all<OutboxRow>()).results;

/** Ann's ticket, watched by Bob (its assignee), whose `status` delivery is `delivery`. */
const watchedTicket = async (delivery: 'instant' | 'daily' | 'off', title = 'Printer jam') => {
  const [ann, bob] = [await person('Ann'), await person('Bob')];
  await setDelivery(bob, delivery);
  const res = await call(recorder().env, 'tickets', { token: ann.token, method: 'POST', json: { title, assigneeId: bob.id } });
  expect(res.status).toBe(201);
  return { ann, bob, ticket: (await res.json()) as Ticket };
};
const resolve = (mailEnv: Env, who: Person, ticket: Ticket) =>
  call(mailEnv, `tickets/${ticket.id}`, { token: who.token, method: 'PATCH', headers: { 'if-match': `"${ticket.version}"` }, json: { status: 'resolved' } });

describe('notification mail', () => {
  it('instant: a status change queues one mail in the same batch and sends it after commit through MAIL', async () => {
    const { ann, bob, ticket } = await watchedTicket('instant');
    const mail = recorder();
    expect((await resolve(mail.env, ann, ticket)).status).toBe(200);
    const rows = await outboxOf(bob, 'status');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: `[#${ticket.id}] Printer jam (now Resolved)`, status: 'sent', attempts: 1 });
    expect(rows[0]?.text).toContain('Ann Mailed changed the status');
    expect(rows[0]?.text).toContain(`${env.APP_URL}/tickets/?id=${ticket.id}`);
    const sent = mail.sent.filter((message) => message.to === bob.email);
    expect(sent).toHaveLength(1);
    const headers = headersOf(sent[0]?.raw ?? '');
    expect(headers.get('To')).toBe(bob.email);
    expect(headers.get('From')).toBe(env.MAIL_FROM);
    expect(headers.get('Subject')).toBe(`[#${ticket.id}] Printer jam (now Resolved)`);
    expect(headers.get('Auto-Submitted')).toBe('auto-generated');
    const replyTo = headers.get('Reply-To') ?? '';
    expect(await readReplyAddress(env.JWT_SECRET, replyTo)).toEqual({ kind: 'ticket', ticketId: ticket.id });
    expect(rows[0]?.reply_to).toBe(replyTo);
    // Ann acted, so Ann is not told; nothing is queued twice by a later run.
    expect(await outboxOf(ann, 'status')).toEqual([]);
  });

  it('with no MAIL binding nothing is sent and the mail stays queued for when there is one', async () => {
    const { ann, bob, ticket } = await watchedTicket('instant');
    const unbound = { ...env, MAIL: undefined } as unknown as Env;
    expect((await resolve(unbound, ann, ticket)).status).toBe(200);
    await mailOnSchedule(unbound, new Date(Date.now() + 60_000));
    expect((await outboxOf(bob, 'status'))[0]).toMatchObject({ status: 'queued', attempts: 0, text: null });
    const mail = recorder();
    await mailOnSchedule(mail.env, new Date(Date.now() + 60_000));
    expect((await outboxOf(bob, 'status'))[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(mail.sent.filter((message) => message.to === bob.email)).toHaveLength(1);
  });

  it('a refused write (stale version) queues nothing', async () => {
    const { ann, bob, ticket } = await watchedTicket('instant');
    expect((await call(recorder().env, `tickets/${ticket.id}`, { token: ann.token, method: 'PATCH', json: { title: 'Moved on' } })).status).toBe(200);
    const mail = recorder();
    expect((await resolve(mail.env, ann, ticket)).status).toBe(412);
    expect(await outboxOf(bob, 'status')).toEqual([]);
    expect(mail.sent).toEqual([]);
  });

  it('off queues nothing; daily queues nothing until the digest', async () => {
    for (const delivery of ['off', 'daily'] as const) {
      const { ann, bob, ticket } = await watchedTicket(delivery);
      const mail = recorder();
      expect((await resolve(mail.env, ann, ticket)).status).toBe(200);
      expect(await outboxOf(bob, 'status')).toEqual([]);
      expect(mail.sent).toEqual([]);
    }
  });

  it('a title with CR LF cannot add a header; a 300-character title stays one header', async () => {
    const long = 'x'.repeat(300);
    for (const title of ['Hi\r\nBcc: eve@example.com', long]) {
      const { ann, bob, ticket } = await watchedTicket('instant');
      // The API refuses both titles; a ticket can still hold one (mail in, imports), so it is put there directly.
      expect((await call(recorder().env, 'tickets', { token: ann.token, method: 'POST', json: { title } })).status).toBe(400);
      await env.DB.prepare('UPDATE tickets SET title = ?2 WHERE id = ?1').bind(ticket.id, title).run();
      const mail = recorder();
      const res = await resolve(mail.env, ann, ticket);
      expect(res.status).toBe(200);
      const raw = mail.sent.find((message) => message.to === bob.email)?.raw ?? '';
      const headers = headersOf(raw);
      expect(headers.lines.filter((line) => /^bcc:/i.test(line))).toEqual([]);
      expect(headers.lines.filter((line) => /^subject:/i.test(line))).toHaveLength(1);
      if (title !== long) expect(headers.get('Subject')).toBe(`[#${ticket.id}] Hi Bcc: eve@example.com (now Resolved)`);
      expect((await outboxOf(bob, 'status'))[0]?.subject).not.toMatch(/[\r\n]/);
    }
  });

  it('a failed send is retried with backoff by the minute trigger and ends failed', async () => {
    const { ann, bob, ticket } = await watchedTicket('instant');
    const failing = recorder('mail server said no');
    expect((await resolve(failing.env, ann, ticket)).status).toBe(200);
    let [row] = await outboxOf(bob, 'status');
    expect(row).toMatchObject({ status: 'queued', attempts: 1 });
    // Each run is at the time the row says is due; the gaps between those times are the backoff.
    const dueTimes: number[] = [];
    for (let attempt = 1; row?.status === 'queued'; attempt++) {
      const due = Date.parse(row.next_attempt_at ?? '');
      dueTimes.push(due);
      await mailOnSchedule(failing.env, new Date(due - 1));
      expect((await outboxOf(bob, 'status'))[0]?.attempts).toBe(attempt);
      await mailOnSchedule(failing.env, new Date(due));
      [row] = await outboxOf(bob, 'status');
      expect(row?.attempts).toBe(attempt + 1);
      expect(row?.status === 'failed' || row?.last_error === 'mail server said no').toBe(true);
    }
    const waits = dueTimes.slice(1).map((due, index) => (due - (dueTimes[index] ?? 0)) / 60_000);
    expect(row?.status).toBe('failed');
    expect(row?.attempts).toBe(RETRY_MINUTES.length + 1);
    expect(waits).toEqual(RETRY_MINUTES.slice(1));
    expect(failing.sent).toEqual([]);
  });

  it('two minute triggers at once never send one mail twice', async () => {
    const { ann, bob, ticket } = await watchedTicket('instant');
    expect((await resolve(recorder('down').env, ann, ticket)).status).toBe(200);
    const [row] = await outboxOf(bob, 'status');
    const due = new Date(Date.parse(row?.next_attempt_at ?? ''));
    const [one, two] = [recorder(), recorder()];
    await Promise.all([mailOnSchedule(one.env, due), mailOnSchedule(two.env, due)]);
    expect([...one.sent, ...two.sent].filter((message) => message.to === bob.email)).toHaveLength(1);
    expect((await outboxOf(bob, 'status'))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('daily digest', () => {
  const zoned = async (zone: string) => {
    const { ann, bob, ticket } = await watchedTicket('daily', `Digest ${zone}`);
    await env.DB.prepare('UPDATE users SET time_zone = ?2 WHERE id = ?1').bind(bob.id, zone).run();
    return { ann, bob, ticket };
  };

  for (const [zone, sevenFive, dayOf] of [
    // 07:05 on 27 November local: AEDT is UTC+11, PST UTC-8.
    ['Australia/Sydney', '2026-11-26T20:05:00Z', '2026-11-27'],
    ['America/Los_Angeles', '2026-11-27T15:05:00Z', '2026-11-27'],
  ] as const) {
    it(`goes once per local day at 07:00 in ${zone}, listing the daily notifications since the last one`, async () => {
      const { ann, bob, ticket } = await zoned(zone);
      expect((await resolve(recorder().env, ann, ticket)).status).toBe(200);
      const seven = Date.parse(sevenFive);
      const mail = recorder();
      // 06:59 local: not yet.
      await mailOnSchedule(mail.env, new Date(seven - 6 * 60_000));
      expect(await outboxOf(bob, 'digest')).toEqual([]);
      await mailOnSchedule(mail.env, new Date(seven));
      await mailOnSchedule(mail.env, new Date(seven + 30 * 60_000));
      const digests = await outboxOf(bob, 'digest');
      expect(digests).toHaveLength(1);
      expect(digests[0]).toMatchObject({ digest_key: `${bob.id}:${dayOf}`, status: 'sent', subject: 'Your daily summary: 1 notification' });
      expect(digests[0]?.text).toContain(`#${ticket.id} Digest ${zone} (now Resolved)`);
      expect(mail.sent.filter((message) => message.to === bob.email)).toHaveLength(1);
      // The next day: nothing new, no digest.
      await mailOnSchedule(mail.env, new Date(seven + 86_400_000));
      expect(await outboxOf(bob, 'digest')).toHaveLength(1);
      // A new daily notification goes in the next day's digest, and only it.
      const reopened = await call(recorder().env, `tickets/${ticket.id}`, { token: ann.token, method: 'PATCH', json: { status: 'open' } });
      expect(reopened.status).toBe(200);
      await mailOnSchedule(mail.env, new Date(seven + 2 * 86_400_000));
      const next = (await outboxOf(bob, 'digest'))[1];
      expect(next?.text).toContain('(now Open)');
      expect(next?.text).not.toContain('(now Resolved)');
    });
  }

  it('sends nobody a digest with nothing in it, and html escapes titles', async () => {
    const { ann, bob, ticket } = await zoned('UTC');
    await call(recorder().env, `tickets/${ticket.id}`, { token: ann.token, method: 'PATCH', json: { title: '<b>&"bold"' } });
    expect((await resolve(recorder().env, ann, { ...ticket, version: ticket.version + 1 })).status).toBe(200);
    const quiet = await person('Quiet');
    await mailOnSchedule(recorder().env, new Date('2026-11-20T07:10:00Z'));
    expect(await outboxOf(quiet, 'digest')).toEqual([]);
    const [digest] = await outboxOf(bob, 'digest');
    expect(digest?.html).toContain('&lt;b&gt;&amp;&quot;bold&quot;');
    expect(digest?.html).not.toContain('<b>');
  });
});

describe('kept bodies', () => {
  it('clears text and html of mail older than 30 days, and keeps newer ones', async () => {
    const { ann, bob, ticket } = await watchedTicket('instant');
    expect((await resolve(recorder().env, ann, ticket)).status).toBe(200);
    const [row] = await outboxOf(bob, 'status');
    const created = Date.parse((await env.DB.prepare('SELECT created_at FROM mail_outbox WHERE id = ?1').bind(row?.id).first<{ created_at: string }>())?.created_at ?? '');
    await mailOnSchedule(recorder().env, new Date(created + 29 * 86_400_000));
    expect((await outboxOf(bob, 'status'))[0]?.text).toContain('Printer jam');
    await mailOnSchedule(recorder().env, new Date(created + 31 * 86_400_000));
    expect((await outboxOf(bob, 'status'))[0]).toMatchObject({ text: null, html: null, status: 'sent' });
  });
});
