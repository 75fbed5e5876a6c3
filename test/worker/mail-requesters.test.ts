import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Attachment } from '../../src/shared/schemas/attachments';
import type { AuditEntry, Company, Page, Ticket, TicketComment } from '../../src/shared/types';
import { NO_REQUESTER } from '../../src/worker/provider/db/mail/public-reply';
import { readReplyAddress, replyAddress } from '../../src/worker/provider/mail/reply-address';
import { INBOX, call, deliver, headersOf, plain, recorder } from './mail-support';
import { api, createUser, expectError, login, readJson, signedIn, type TestUser } from './support';

// Requesters (docs/api.md#mail): mail from a company's own domains opens tickets for it, the
// requester's answers come back as their comments, and a comment can be sent to them by mail.

let admin: { user: TestUser; token: string };
let staff: TestUser & { token: string };
beforeAll(async () => {
  admin = await signedIn('admin');
  const user = await createUser({ firstName: 'Desk', surname: 'Person' });
  staff = { ...user, token: await login(user) };
});

const tag = () => crypto.randomUUID().slice(0, 8);
const newCompany = (json: Record<string, unknown>) => api('companies', { method: 'POST', token: admin.token, json: { name: `Co ${tag()}`, ...json } });
const companyWith = async (domains: string[]) => {
  const { status, body, text } = await readJson<Company>(await newCompany({ emailDomains: domains }));
  expect(status, text).toBe(201);
  return body;
};
const readTicket = async (id: number) => (await readJson<Ticket>(await api(`tickets/${id}`, { token: staff.token }))).body;
const commentsOf = async (id: number) => (await readJson<{ items: TicketComment[] }>(await api(`tickets/${id}/comments`, { token: staff.token }))).body.items;
const newestTicket = async () => (await env.DB.prepare('SELECT id FROM tickets ORDER BY id DESC LIMIT 1').first<{ id: number }>())?.id ?? 0;
const counts = async () =>
  (await env.DB.prepare('SELECT (SELECT count(*) FROM tickets) AS tickets, (SELECT count(*) FROM ticket_comments) AS comments, (SELECT count(*) FROM mail_outbox) AS mails').first()) as Record<string, number>;

describe("a company's mail domains", () => {
  it('are stored bare and lower-case, answered and audited as a list', async () => {
    const domain = `acme-${tag()}.test`;
    const company = await companyWith([`@${domain.toUpperCase()}`, ` help.${domain} `]);
    expect(company.emailDomains).toEqual([domain, `help.${domain}`]);
    expect((await readJson<Company>(await api(`companies/${company.id}`, { token: admin.token }))).body.emailDomains).toEqual([domain, `help.${domain}`]);
    const log = (await readJson<Page<AuditEntry>>(await api(`audit?entity=company&entityId=${company.id}`, { token: admin.token }))).body;
    expect(log.items[0]?.changes.emailDomains).toEqual([null, [domain, `help.${domain}`]]);
  });

  it('refuses what is no domain, the same domain twice, and more than 20', async () => {
    const refused = async (emailDomains: unknown, message: RegExp) => {
      const body = await expectError(await newCompany({ emailDomains }), 400);
      expect(JSON.stringify(body)).toMatch(message);
    };
    await refused(['not a domain'], /not a domain is not a mail domain/);
    await refused(['localhost'], /is not a mail domain/);
    await refused([`${'a'.repeat(64)}.test`], /is not a mail domain/);
    await refused(['a@b.test'], /is not a mail domain/);
    await refused(['x.test', 'X.test'], /Each mail domain once/);
    await refused(Array.from({ length: 21 }, (_, i) => `d${i}.test`), /At most 20 mail domains/);
    await refused('acme.test', /must be a `array` type|array/);
  });

  it('belong to one company: a second claim is refused with the holder named, even two at once', async () => {
    const domain = `shared-${tag()}.test`;
    const holder = await companyWith([domain]);
    const again = await readJson<{ detail: string; errors: Record<string, string[]> }>(await newCompany({ emailDomains: [domain.toUpperCase()] }));
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`${domain} already belongs to ${holder.name}`);
    expect(again.body.errors).toEqual({ emailDomains: [`${domain} already belongs to ${holder.name}`] });
    const race = `race-${tag()}.test`;
    const results = await Promise.all([newCompany({ emailDomains: [race] }), newCompany({ emailDomains: [race] })]);
    expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
    // Taking the domain off the holder frees it.
    const freed = await api(`companies/${holder.id}`, { method: 'PATCH', token: admin.token, json: { emailDomains: [] } });
    expect(freed.status).toBe(200);
    expect((await newCompany({ emailDomains: [domain] })).status).toBe(201);
  });
});

describe('mail from a company domain', () => {
  it('opens a ticket for the company with the sender as requester and no reporter', async () => {
    const domain = `client-${tag()}.test`;
    const company = await companyWith([domain]);
    const from = `alice@${domain}`;
    const received = await deliver(from, INBOX, plain(`Alice Example <${from}>`, 'VPN down', 'The VPN drops every hour.\n\n@[Desk Person](user:1) please look'));
    expect(received.rejected).toBeNull();
    const ticket = await readTicket(await newestTicket());
    expect(ticket).toMatchObject({ title: 'VPN down', companyId: company.id, reporterId: null, requester: { email: from, name: 'Alice Example' } });
    // A stranger's text mentions nobody: no notification came of it.
    const notices = await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE entity_id = ?1 AND kind = 'mentioned'").bind(ticket.id).first<{ n: number }>();
    expect(notices?.n).toBe(0);
    const entries = await env.DB.prepare("SELECT action, actor_id FROM audit_log WHERE entity = 'ticket' AND entity_id = ?1 ORDER BY id").bind(ticket.id).all<{ action: string; actor_id: number | null }>();
    expect(entries.results).toEqual([
      { action: 'create', actor_id: null },
      { action: 'mail_in', actor_id: null },
    ]);
    const listed = (await readJson<Page<Ticket>>(await api(`tickets?q=${encodeURIComponent('VPN down')}`, { token: staff.token }))).body.items.find((item) => item.id === ticket.id);
    expect(listed?.requester).toEqual({ email: from, name: 'Alice Example' });
  });

  it('is refused from a domain no company holds, and from an inactive company’s', async () => {
    const domain = `gone-${tag()}.test`;
    const company = await companyWith([domain]);
    await api(`companies/${company.id}`, { method: 'PATCH', token: admin.token, json: { isActive: false } });
    const before = await counts();
    expect((await deliver(`bob@${domain}`, INBOX, plain(`bob@${domain}`, 'Hi', 'Hello'))).rejected).toBe('Unknown sender');
    expect((await deliver(`eve@nobody-${tag()}.test`, INBOX, plain('eve@nobody.test', 'Hi', 'Hello'))).rejected).toBe('Unknown sender');
    expect(await counts()).toEqual(before);
  });
});

describe("the requester's answers", () => {
  let ticket: Ticket;
  let from: string;
  beforeAll(async () => {
    const domain = `answers-${tag()}.test`;
    await companyWith([domain]);
    from = `carol@${domain}`;
    expect((await deliver(from, INBOX, plain(`Carol Client <${from}>`, 'Laptop slow', 'It takes minutes to start.'))).rejected).toBeNull();
    ticket = await readTicket(await newestTicket());
    const assigned = await api(`tickets/${ticket.id}`, { method: 'PATCH', token: staff.token, json: { assigneeId: staff.id } });
    expect(assigned.status).toBe(200);
  });
  const replyTo = () => replyAddress(env.JWT_SECRET, INBOX, ticket.id) as Promise<string>;

  it('come back as their comment, told to the watchers, with their files, and are no first response', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const raw = `From: Carol Client <${from}>\nTo: ${await replyTo()}\nSubject: Re: [#${ticket.id}] Laptop slow\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nStill slow after the update.\n\nOn Tue, Carol wrote:\n> older\n--b\nContent-Type: image/png\nContent-Disposition: attachment; filename="boot.png"\nContent-Transfer-Encoding: base64\n\n${png}\n--b--\n`;
    expect((await deliver(from, await replyTo(), raw)).rejected).toBeNull();
    const comments = await commentsOf(ticket.id);
    expect(comments.at(-1)).toMatchObject({ userId: null, userName: 'Carol Client', body: 'Still slow after the update.', external: true, externalEmail: from, internal: false });
    const files = (await readJson<{ items: Attachment[] }>(await api(`tickets/${ticket.id}/attachments`, { token: staff.token }))).body.items;
    expect(files).toMatchObject([{ name: 'boot.png', uploadedBy: null, uploadedByName: 'Carol Client', commentId: comments.at(-1)?.id }]);
    const notice = await env.DB.prepare("SELECT actor_id FROM notifications WHERE user_id = ?1 AND entity_id = ?2 AND kind = 'commented'").bind(staff.id, ticket.id).first<{ actor_id: number | null }>();
    expect(notice).toEqual({ actor_id: null });
    const row = await env.DB.prepare('SELECT sla_first_responded_at FROM tickets WHERE id = ?1').bind(ticket.id).first<{ sla_first_responded_at: string | null }>();
    expect(row?.sla_first_responded_at).toBeNull();
  });

  it('from anyone else at the domain are refused', async () => {
    const before = await counts();
    const other = from.replace('carol', 'dave');
    expect((await deliver(other, await replyTo(), plain(other, 'Re', 'Me too'))).rejected).toBe('Unknown sender');
    expect(await counts()).toEqual(before);
  });
});

describe('Reply by mail', () => {
  let ticket: Ticket;
  let from: string;
  beforeAll(async () => {
    const domain = `replies-${tag()}.test`;
    await companyWith([domain]);
    from = `erin@${domain}`;
    expect((await deliver(from, INBOX, plain(`Erin <${from}>`, 'Printer\r\nBcc: evil@x.test', 'Out of toner.'))).rejected).toBeNull();
    ticket = await readTicket(await newestTicket());
  });

  it('sends the comment to the requester from the app with the reply address, and marks it not internal', async () => {
    const mail = recorder();
    const res = await call(mail.env, `tickets/${ticket.id}/comments`, { token: staff.token, method: 'POST', json: { body: 'New toner is on its way, @[Desk Person](user:1).', sendToRequester: true } });
    expect(res.status, await res.clone().text()).toBe(201);
    const comment = (await res.json()) as TicketComment;
    expect(comment).toMatchObject({ internal: false, external: false, externalEmail: null, userId: staff.id });
    const sent = mail.sent.filter((message) => message.to === from);
    expect(sent).toHaveLength(1);
    const headers = headersOf(sent[0]?.raw ?? '');
    expect(headers.get('Subject')).toBe(`[#${ticket.id}] ${ticket.title}`);
    expect(headers.lines.filter((line) => /^bcc:/i.test(line))).toEqual([]);
    expect(await readReplyAddress(env.JWT_SECRET, headers.get('Reply-To') ?? '')).toEqual({ kind: 'ticket', ticketId: ticket.id });
    const row = await env.DB.prepare("SELECT status, \"to\", text, html FROM mail_outbox WHERE ticket_id = ?1 AND kind = 'reply'").bind(ticket.id).first<Record<string, string>>();
    expect(row).toMatchObject({ status: 'sent', to: from });
    // Mentions read as names; the author signs; no link into an app the requester cannot open.
    expect(row?.text).toBe(`New toner is on its way, @Desk Person.\n\nDesk Person\n\nReply to this mail to answer; keep [#${ticket.id}] in the subject.\n`);
    expect(row?.html).toContain('New toner is on its way, @Desk Person.');
    expect(`${row?.text}${row?.html}`).not.toContain('/tickets/');
  });

  it('without the flag a comment is an internal note and nothing is mailed to the requester', async () => {
    const mail = recorder();
    const res = await call(mail.env, `tickets/${ticket.id}/comments`, { token: staff.token, method: 'POST', json: { body: 'Toner ordered from the usual shop.' } });
    expect(((await res.json()) as TicketComment).internal).toBe(true);
    expect(mail.sent.filter((message) => message.to === from)).toEqual([]);
  });

  it('is refused on a ticket with no requester, storing nothing', async () => {
    const own = (await readJson<Ticket>(await api('tickets', { method: 'POST', token: staff.token, json: { title: 'Internal job' } }))).body;
    const before = await counts();
    const body = await expectError(await api(`tickets/${own.id}/comments`, { method: 'POST', token: staff.token, json: { body: 'Hello', sendToRequester: true } }), 400);
    expect(body.message).toBe(NO_REQUESTER);
    expect(await counts()).toEqual(before);
    const edit = await api(`tickets/${ticket.id}/comments/1`, { method: 'PATCH', token: staff.token, json: { body: 'x', sendToRequester: true } });
    expect((await expectError(edit, 400)).message).toMatch(/Unknown field: sendToRequester/);
  });
});
