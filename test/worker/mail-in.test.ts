import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../src/shared/schemas/attachments';
import type { Ticket, TicketComment } from '../../src/shared/types';
import { replyAddress } from '../../src/worker/provider/mail/reply-address';
import { INBOX, deliver, plain } from './mail-support';
import { api, createUser, login, readJson, type TestUser } from './support';

// The email() handler as Email Routing calls it: a raw message, the envelope's from and to, and
// setReject for what is refused. Everything it writes is read back through the API and D1.
const counts = async () =>
  (await env.DB.prepare('SELECT (SELECT count(*) FROM tickets) AS tickets, (SELECT count(*) FROM ticket_comments) AS comments, (SELECT count(*) FROM attachments) AS files').first()) as Record<string, number>;

let staff: TestUser & { token: string };
beforeAll(async () => {
  const user = await createUser({ firstName: 'Mailing', surname: 'Person' });
  staff = { ...user, token: await login(user) };
});

const newestTicket = async () => (await env.DB.prepare('SELECT id FROM tickets ORDER BY id DESC LIMIT 1').first<{ id: number }>())?.id ?? 0;
const readTicket = async (id: number) => (await readJson<Ticket>(await api(`tickets/${id}`, { token: staff.token }))).body;

describe('mail to the inbox', () => {
  it('from an active person becomes a ticket they reported, with its files, one mail_in audit entry beside the create', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const received = await deliver(
      staff.email.toUpperCase(),
      INBOX,
      `From: Mailing Person <${staff.email}>
To: ${INBOX}
Subject: =?UTF-8?Q?Dr=C3=BCcker_kaputt?=
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="outer"

--outer
Content-Type: multipart/alternative; boundary="inner"

--inner
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

Der Dr=C3=BCcker druckt nicht.
--inner
Content-Type: text/html; charset=utf-8

<p>Der Drucker <script>alert(1)</script></p>
--inner--
--outer
Content-Type: image/png; name="screen.png"
Content-Disposition: attachment; filename="screen.png"
Content-Transfer-Encoding: base64

${png}
--outer--
`,
    );
    expect(received.rejected).toBeNull();
    const ticket = await readTicket(await newestTicket());
    expect(ticket).toMatchObject({ title: 'Drücker kaputt', description: 'Der Drücker druckt nicht.', reporterId: staff.id, status: 'open' });
    const files = (await readJson<{ items: Attachment[] }>(await api(`tickets/${ticket.id}/attachments`, { token: staff.token }))).body.items;
    expect(files).toMatchObject([{ name: 'screen.png', contentType: 'image/png', bytes: atob(png).length }]);
    const entries = await env.DB.prepare("SELECT action, actor_id, changes FROM audit_log WHERE entity = 'ticket' AND entity_id = ?1 ORDER BY id").bind(ticket.id).all<{ action: string; actor_id: number; changes: string }>();
    expect(entries.results.map((entry) => entry.action)).toEqual(['create', 'mail_in', 'attach']);
    expect(JSON.parse(entries.results[1]?.changes ?? '{}')).toEqual({
      from: [null, staff.email.toLowerCase()],
      to: [null, INBOX],
      subject: [null, 'Drücker kaputt'],
      attachments: [null, 1],
    });
  });

  it('keeps HTML-only mail as text, never its scripts, and a subject trying to add a header as one line', async () => {
    const received = await deliver(
      staff.email,
      INBOX,
      `From: ${staff.email}
To: ${INBOX}
Subject: Hello =?UTF-8?B?${btoa('\r\nBcc: x@evil.test')}?=
MIME-Version: 1.0
Content-Type: text/html

<html><head><style>p{}</style></head><body><p>Screen &amp; keyboard</p><script>steal()</script></body></html>
`,
    );
    expect(received.rejected).toBeNull();
    const ticket = await readTicket(await newestTicket());
    expect(ticket.title).toBe('Hello Bcc: x@evil.test');
    expect(ticket.description).toBe('Screen & keyboard');
  });

  it.each([
    ['a stranger', 'stranger@elsewhere.test', {}, 'Unknown sender'],
    ['a reply-looking address signed with another key', 'self', { to: 'ticket+1.0123456789abcdef@localhost.test' }, 'Unknown reply address'],
    ['an address that is neither the inbox nor a reply address', 'self', { to: 'sales@localhost.test' }, 'Unknown address'],
  ])('from %s is refused, writing nothing', async (_, from, options: { to?: string }, reason) => {
    const before = await counts();
    const sender = from === 'self' ? staff.email : from;
    const received = await deliver(sender, options.to ?? INBOX, plain(sender, 'Hi', 'Hello'));
    expect(received.rejected).toBe(reason);
    expect(await counts()).toEqual(before);
  });

  it('from a deactivated person is refused', async () => {
    const gone = await createUser({ isActive: false });
    const received = await deliver(gone.email, INBOX, plain(gone.email, 'Hi', 'Hello'));
    expect(received.rejected).toBe('Unknown sender');
  });

  it('drops auto-replies and our own mail coming back, without a reply that could start a loop', async () => {
    const before = await counts();
    expect(await deliver(staff.email, INBOX, plain(staff.email, 'Out of office', 'Away', 'Auto-Submitted: auto-replied\n'))).toEqual({ rejected: null });
    expect(await deliver(staff.email, INBOX, plain(staff.email, 'Out of office', 'Away'), { 'auto-submitted': 'auto-generated' })).toEqual({ rejected: null });
    const own = env.MAIL_FROM ?? 'notifications@localhost.test';
    expect(await deliver(own, INBOX, plain(own, '[#1] Printer', 'Someone commented'))).toEqual({ rejected: null });
    expect(await counts()).toEqual(before);
  });

  it('refuses, whole, a mail larger than 25 MiB, one with 200 attachments, and one with nothing in it', async () => {
    const before = await counts();
    const huge = new Uint8Array(26 * 1024 * 1024).fill(65);
    expect((await deliver(staff.email, INBOX, huge)).rejected).toBe('Message larger than 25 MiB');
    const parts = Array.from({ length: 200 }, (_, i) => `--b\nContent-Type: text/plain\nContent-Disposition: attachment; filename="f${i}.txt"\n\nfile ${i}\n`).join('');
    const many = `From: ${staff.email}\nTo: ${INBOX}\nSubject: Many\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nSee files\n${parts}--b--\n`;
    expect((await deliver(staff.email, INBOX, many)).rejected).toBe('More than 20 attachments');
    expect((await deliver(staff.email, INBOX, '\u0000\u0001 not a mail at all')).rejected).toMatch(/^(Empty message|Malformed message)/);
    expect(await counts()).toEqual(before);
  });
});

describe('mail to a ticket’s reply address', () => {
  const replyTo = (id: number) => replyAddress(env.JWT_SECRET, INBOX, id) as Promise<string>;

  it('from an active person becomes their comment, without the quoted history, and is the first response', async () => {
    const reporter = await createUser();
    const reporterToken = await login(reporter);
    const ticket = (await readJson<Ticket>(await api('tickets', { method: 'POST', token: reporterToken, json: { title: 'Reply by mail' } }))).body;
    const to = await replyTo(ticket.id);
    const received = await deliver(staff.email, to, plain(staff.email, `Re: [#${ticket.id}] Reply by mail`, `Restarted the spooler.\n\nOn Mon, 2 Nov 2026 at 10:00, Reporter <r@x.test> wrote:\n> It is broken`));
    expect(received.rejected).toBeNull();
    const comments = (await readJson<{ items: TicketComment[] }>(await api(`tickets/${ticket.id}/comments`, { token: staff.token }))).body.items;
    expect(comments).toMatchObject([{ userId: staff.id, body: 'Restarted the spooler.' }]);
    const actions = await env.DB.prepare("SELECT action FROM audit_log WHERE entity = 'ticket' AND entity_id = ?1 ORDER BY id").bind(ticket.id).all<{ action: string }>();
    expect(actions.results.map((row) => row.action)).toEqual(['create', 'comment', 'mail_in']);
  });

  it('refuses a reply to a ticket closed more than 30 days ago, or to one that does not exist', async () => {
    const ticket = (await readJson<Ticket>(await api('tickets', { method: 'POST', token: staff.token, json: { title: 'Long closed', status: 'closed' } }))).body;
    await env.DB.prepare("UPDATE tickets SET resolved_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-31 days') WHERE id = ?1").bind(ticket.id).run();
    const before = await counts();
    expect((await deliver(staff.email, await replyTo(ticket.id), plain(staff.email, 'Re', 'Again'))).rejected).toBe(`Ticket #${ticket.id} was closed more than 30 days ago`);
    expect((await deliver(staff.email, await replyTo(999_999), plain(staff.email, 'Re', 'Again'))).rejected).toBe('Ticket #999999 does not exist');
    expect(await counts()).toEqual(before);
  });

  it('is refused while an upstream API holds the data', async () => {
    const received = await deliver(staff.email, INBOX, plain(staff.email, 'Hi', 'Hello'), {}, { UPSTREAM_API_URL: 'https://upstream.test' });
    expect(received.rejected).toBe('This deployment does not take mail');
  });
});
