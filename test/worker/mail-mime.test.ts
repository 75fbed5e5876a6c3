import { describe, expect, it } from 'vitest';
import { buildMime, encodedWord } from '../../src/worker/provider/mail/mime';

const mail = {
  id: 1,
  to: 'ann@example.com',
  subject: '[#9] Café\r\nBcc: eve@example.com',
  reply_to: 'ticket+9.0123456789abcdef@example.com',
  text: 'Bob assigned you',
  html: '<p>Bob assigned you</p>',
  headers: JSON.stringify({ 'Auto-Submitted': 'auto-generated' }),
  attempts: 0,
};

describe('buildMime', () => {
  it('builds plain and HTML alternatives with the headers a notification needs', () => {
    const raw = buildMime(mail, 'Staff App <notify@example.com>', '1@example.com');
    const [head, ...body] = raw.split('\r\n\r\n');
    expect(head).toContain('From: Staff App <notify@example.com>');
    expect(head).toContain('To: ann@example.com');
    expect(head).toContain('Reply-To: ticket+9.0123456789abcdef@example.com');
    expect(head).toContain('Auto-Submitted: auto-generated');
    expect(head).toMatch(/Content-Type: multipart\/alternative; boundary="/);
    expect(body.join('\r\n\r\n')).toContain('Content-Type: text/plain; charset=UTF-8');
    expect(body.join('\r\n\r\n')).toContain('Content-Type: text/html; charset=UTF-8');
    expect(raw).toContain(btoa('Bob assigned you'));
  });

  it('encodes a UTF-8 subject and lets no line break in a value start a header', () => {
    const raw = buildMime(mail, 'notify@example.com', '2@example.com');
    const head = raw.split('\r\n\r\n')[0] ?? '';
    expect(head.split('\r\n').some((line) => /^bcc:/i.test(line))).toBe(false);
    expect(head).toMatch(/Subject: =\?UTF-8\?B\?/);
    expect(encodedWord('plain title')).toBe('plain title');
    const word = /=\?UTF-8\?B\?([^?]+)\?=/.exec(encodedWord('Café'))?.[1] ?? '';
    expect(new TextDecoder().decode(Uint8Array.from(atob(word), (c) => c.charCodeAt(0)))).toBe('Café');
  });
});
