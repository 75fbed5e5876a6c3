import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { headerValue, queueMailStatement } from '../../src/worker/provider/db/mail/outbox';

describe('queueMailStatement', () => {
  it('queues one mail, marked machine-sent, due at once', async () => {
    const result = await queueMailStatement(env.DB, {
      to: 'ann@example.com',
      subject: '[#5] Printer',
      kind: 'reply',
      ticketId: 5,
      replyTo: 'ticket+5.0123456789abcdef@example.com',
      text: 'Hello',
      html: '<p>Hello</p>',
      requestId: 'queue-test',
    }).run();
    const row = await env.DB.prepare('SELECT * FROM mail_outbox WHERE id = ?1').bind(result.meta.last_row_id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ to: 'ann@example.com', subject: '[#5] Printer', kind: 'reply', ticket_id: 5, status: 'queued', attempts: 0, request_id: 'queue-test' });
    expect(JSON.parse(String(row?.headers))).toEqual({ 'Auto-Submitted': 'auto-generated' });
    expect(row?.next_attempt_at).toEqual(expect.any(String));
  });

  it('keeps CR and LF out of every header, so a title cannot add a Bcc', async () => {
    expect(headerValue('Hi\r\nBcc: eve@example.com')).toBe('Hi Bcc: eve@example.com');
    const result = await queueMailStatement(env.DB, {
      to: 'ann@example.com\r\nBcc: eve@example.com',
      subject: '[#6] Hi\r\nBcc: eve@example.com',
      kind: 'assigned',
      ticketId: 6,
      replyTo: 'x@example.com\nCc: eve@example.com',
      text: 'line one\r\nline two',
      html: '',
      requestId: null,
      headers: { 'X-Note': 'a\r\nBcc: eve@example.com' },
    }).run();
    const row = await env.DB.prepare('SELECT * FROM mail_outbox WHERE id = ?1').bind(result.meta.last_row_id).first<Record<string, string>>();
    for (const value of [row?.to, row?.subject, row?.reply_to, ...Object.values(JSON.parse(String(row?.headers)) as Record<string, string>)]) expect(value).not.toMatch(/[\r\n]/);
    expect(row?.subject).toBe('[#6] Hi Bcc: eve@example.com');
    expect(row?.text).toBe('line one\r\nline two');
  });
});
