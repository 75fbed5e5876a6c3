// What the app does to text people type, shared by the forms and the provider so both agree.

// Characters that draw nothing: white space, format characters (zero-width space, joiners, bidi
// marks) and the other default-ignorable ones (Hangul fillers U+115F, U+1160, U+3164, U+FFA0),
// plus the blank braille pattern U+2800, which fonts draw as empty.
const INVISIBLE = /[\p{White_Space}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;
const ALL_INVISIBLES = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

// Embeddings, overrides and isolates reorder the text around them, so `invoice\u202Efdp.exe`
// reads as `invoiceexe.pdf`. Refused anywhere, so trimming leaves them in place to be refused.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/u;

const trimmable = (ch: string) => INVISIBLE.test(ch) && !BIDI_CONTROLS.test(ch);

export const BIDI_MESSAGE = 'Must not contain text direction control characters';

/** NFC, with white space and invisible characters taken off both ends: what gets stored. */
// A loop, not a `[…]+$` pattern: that one backtracks quadratically over a long run of spaces
// that does not reach the end, and bodies may be megabytes.
export const normalizeText = (value: string) => {
  const chars = Array.from(value.normalize('NFC'));
  let start = 0;
  let end = chars.length;
  while (start < end && trimmable(chars[start] as string)) start += 1;
  while (end > start && trimmable(chars[end - 1] as string)) end -= 1;
  return chars.slice(start, end).join('');
};

/** Whether the value has a character that shows; one made only of invisible ones is blank. */
export const hasVisibleText = (value: string) => [...value].some((ch) => !INVISIBLE.test(ch));

export const hasBidiControl = (value: string) => BIDI_CONTROLS.test(value);

// Cyrillic and Greek letters drawn like Latin ones, which NFKC leaves alone (they are different
// letters), so `GIFS Group` with a Cyrillic І is the same name. Upper and lower case apart,
// because Greek ν looks like v while Ν looks like N.
const LOOK_ALIKES: Record<string, string> = {
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', Х: 'X', У: 'Y',
  Ѕ: 'S', І: 'I', Ӏ: 'I', Ј: 'J', Ԛ: 'Q', Ԝ: 'W', Ү: 'Y', Һ: 'H',
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', у: 'y', х: 'x', ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', һ: 'h',
  ԛ: 'q', ԝ: 'w', ӏ: 'l', ү: 'y',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T',
  Υ: 'Y', Χ: 'X',
  α: 'a', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', υ: 'u', χ: 'x',
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'gu');

/**
 * The form two names are compared in for uniqueness: NFKC (fullwidth and styled letters become
 * plain ones, NBSP a space), invisible characters removed, look-alike letters folded to Latin,
 * case-folded, runs of white space made one space, ends trimmed. `GIFS Group`, ` gifs  group`,
 * `GIFS\u00a0Group`, `GIFS Group\u200b` and `GІFS Group` all give `gifs group`.
 */
export const nameKey = (value: string) =>
  value
    .normalize('NFKC')
    .replace(ALL_INVISIBLES, '')
    .replace(LOOK_ALIKE, (ch) => LOOK_ALIKES[ch] ?? ch)
    .toLowerCase()
    .normalize('NFKC')
    .replace(/[\p{White_Space}\u2800]+/gu, ' ')
    .trim();
