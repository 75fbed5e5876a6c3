import { describe, expect, it } from 'vitest';
import { htmlToText, mailBodyText, stripQuotedHistory } from '../../src/worker/provider/mail/inbound-text';

describe('received mail body text', () => {
  it('drops the quoted history from an "On … wrote:" line on', () => {
    const text = 'Thanks, that fixed it.\r\n\r\nOn Mon, 2 Nov 2026 at 10:00, Ann <ann@example.com> wrote:\r\n> Try restarting.\r\n> Bye';
    expect(stripQuotedHistory(text)).toBe('Thanks, that fixed it.');
  });

  it('drops trailing > lines but keeps a quote in the middle of the text', () => {
    expect(stripQuotedHistory('You said:\n> restart it\nI did.\n\n> old\n> older')).toBe('You said:\n> restart it\nI did.');
  });

  it('turns HTML into text and leaves scripts, styles and comments as nothing', () => {
    const html = '<html><head><style>p{}</style></head><body><p>Hello&nbsp;<b>there</b> &amp; &#233;</p><script>alert(1)</script><!-- x --><div>Line two<br>three</div><script>never closed';
    const text = htmlToText(html);
    expect(text).toBe('Hello there & é\nLine two\nthree');
    expect(text).not.toMatch(/alert|<|never closed/);
  });

  it('prefers the text part and falls back to the HTML part', () => {
    expect(mailBodyText('plain', '<p>html</p>')).toBe('plain');
    expect(mailBodyText('  ', '<p>html</p>')).toBe('html');
    expect(mailBodyText(undefined, undefined)).toBe('');
  });
});
