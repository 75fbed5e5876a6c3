/**
 * The body text a received mail becomes (docs/api.md#mail): the text part when there is one, else
 * the HTML part turned into plain text. HTML is never stored: tags go, scripts and styles go with
 * their content, and the few entities mail clients use are decoded. The quoted history a reply
 * carries below "On … wrote:" (and the `>` lines after it) is dropped, so a comment holds only
 * what the sender wrote.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Plain text from an HTML body: block ends become line breaks, scripts and styles become nothing. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<(script|style|head|template)\b[\s\S]*?(<\/\1\s*>|$)/gi, '')
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<br\b[^>]*>/gi, '\n')
    .replace(/<\/(p|div|li|tr|h[1-6]|blockquote|pre)\s*>/gi, '\n')
    .replace(/<[^>]*(>|$)/g, '');
  return decodeEntities(text).replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}

// "On Mon, 2 Jan 2026 at 10:00, Ann <ann@example.com> wrote:" — the attribution line most clients write.
const ATTRIBUTION = /^\s*On\s.+\swrote:\s*$/;

/** The text above the quoted history: everything from an "On … wrote:" line (or its first `>` line) on is cut. */
export function stripQuotedHistory(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const attribution = lines.findIndex((line) => ATTRIBUTION.test(line));
  const kept = attribution >= 0 ? lines.slice(0, attribution) : lines;
  // Trailing `>` lines without an attribution are quoted history too; quotes in the middle stay.
  let end = kept.length;
  while (end > 0 && (/^\s*>/.test(kept[end - 1] ?? '') || (kept[end - 1] ?? '').trim() === '')) end -= 1;
  return kept.slice(0, end).join('\n').trim();
}

/** The body a mail becomes: its text part, else its HTML as text, without quoted history. */
export function mailBodyText(text: string | undefined, html: string | undefined): string {
  const body = text && text.trim() !== '' ? text : html ? htmlToText(html) : '';
  return stripQuotedHistory(body);
}
