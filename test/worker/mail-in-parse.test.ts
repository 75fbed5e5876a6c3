import { describe, expect, it } from 'vitest';
import { parseMail } from '../../src/worker/provider/mail/inbound-parse';

const raw = (text: string) => new TextEncoder().encode(text.replace(/\n/g, '\r\n'));

describe('parsing a received mail', () => {
  it('reads a multipart/alternative mail with a UTF-8 encoded-word subject and quoted-printable text', async () => {
    const mail = await parseMail(raw(`From: =?UTF-8?B?QW5uIE3DvGxsZXI=?= <Ann@Example.com>
To: support@app.test
Subject: =?UTF-8?Q?Dr=C3=BCcker_kaputt?=
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="b1"

--b1
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

Der Dr=C3=BCcker druckt nicht.

On Mon, 2 Nov 2026 at 10:00, Bob <bob@app.test> wrote:
> old text
--b1
Content-Type: text/html; charset=utf-8

<p>Der Drucker</p>
--b1--
`));
    expect(mail).toMatchObject({ fromAddress: 'ann@example.com', fromName: 'Ann Müller', subject: 'Drücker kaputt', autoSubmitted: null });
    expect(mail.body).toBe('Der Drücker druckt nicht.');
    expect(mail.attachments).toEqual([]);
  });

  it('turns an HTML-only mail with a script into text and keeps an attachment', async () => {
    const mail = await parseMail(raw(`From: ann@example.com
Subject: Hi
Auto-Submitted: auto-replied
Content-Type: multipart/mixed; boundary="b2"

--b2
Content-Type: text/html

<p>Hello</p><script>alert(1)</script>
--b2
Content-Type: text/plain; name="log.txt"
Content-Disposition: attachment; filename="log.txt"
Content-Transfer-Encoding: base64

aGVsbG8=
--b2--
`));
    expect(mail.body).toBe('Hello');
    expect(mail.autoSubmitted).toBe('auto-replied');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]?.filename).toBe('log.txt');
    expect(new TextDecoder().decode(mail.attachments[0]?.content)).toBe('hello');
  });

  it('flattens a subject carrying encoded line breaks (header injection) into one line', async () => {
    const mail = await parseMail(raw(`From: ann@example.com
Subject: =?UTF-8?B?${btoa('Hi\r\nBcc: victim@example.com')}?=

body
`));
    expect(mail.subject).toBe('Hi Bcc: victim@example.com');
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('gives no sender for text that is no mail', async () => {
    const mail = await parseMail(raw('this is not a mail at all'));
    expect(mail.fromAddress).toBeNull();
  });
});
