/**
 * Mentions in a comment or ticket description (docs/architecture.md#notifications-watchers-and-mentions):
 * `@[First Surname](user:<id>)`. The stored text keeps the token; the page shows it as the name.
 */
const MENTION = /@\[([^\]\n]{1,100})\]\(user:([1-9]\d{0,15})\)/g;

/** At most this many people are notified from one text. */
export const MAX_MENTIONS = 50;

export const mentionToken = (name: string, userId: number) => `@[${name.replace(/[[\]\n]/g, ' ').trim()}](user:${userId})`;

/** The distinct ids the text's tokens name, in order; whether they are active people is the writer's check. */
export const mentionedIds = (text: string | null | undefined): number[] => {
  const ids = new Set<number>();
  for (const match of (text ?? '').matchAll(MENTION)) {
    if (ids.size >= MAX_MENTIONS) break;
    ids.add(Number(match[2]));
  }
  return [...ids];
};

export type TextPart = { text: string } | { name: string; userId: number; token: string };

/** The text cut into plain runs and mention tokens, for showing the tokens as names. */
export const mentionParts = (text: string): TextPart[] => {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(MENTION)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ name: match[1] ?? '', userId: Number(match[2]), token: match[0] });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
};
