/**
 * What a person typed into a search box, read as docs/architecture.md#search-and-list-views says: `#123` or `123` is a ticket
 * number; otherwise words in any order, "a quoted phrase", and the last word a prefix while it is
 * still being typed. Every word goes to FTS5 inside double quotes, so its operators (AND, NEAR(,
 * *, ^, column filters) are only ever text.
 */
export interface SearchTerms {
  /** A ticket number, when the whole input is one. */
  id: number | null;
  /** An FTS5 MATCH expression, or null when nothing searchable is left. */
  match: string | null;
  /** The plain words, for prefix matches on names, codes and references. */
  words: string[];
}

const TICKET_NUMBER = /^#?(\d{1,15})$/;
// A searchable word holds a letter or a digit; "*" or "--" alone would be an empty FTS phrase.
const SEARCHABLE = /[\p{L}\p{N}]/u;
const PIECES = /"([^"]*)"?|(\S+)/g;

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/** The words of a phrase as the FTS tokenizer will see them: letters and digits only. */
const wordsOf = (text: string) => text.split(/[^\p{L}\p{N}]+/u).filter((word) => SEARCHABLE.test(word));

export const searchTerms = (input: string): SearchTerms => {
  const text = input.normalize('NFC').trim();
  const number = TICKET_NUMBER.exec(text)?.[1];
  const parts: string[] = [];
  const words: string[] = [];
  const pieces = [...text.matchAll(PIECES)];
  pieces.forEach((piece, index) => {
    const [, phrase, bare] = piece;
    if (phrase !== undefined) {
      const phraseWords = wordsOf(phrase);
      if (phraseWords.length) parts.push(quoted(phraseWords.join(' ')));
      words.push(...phraseWords);
      return;
    }
    const bareWords = wordsOf(bare ?? '');
    words.push(...bareWords);
    // Only the last word can be unfinished, and only while no space follows it.
    const typing = index === pieces.length - 1 && !/\s$/.test(input);
    bareWords.forEach((word, i) => parts.push(typing && i === bareWords.length - 1 ? `${quoted(word)}*` : quoted(word)));
  });
  return {
    id: number ? Number(number) : null,
    match: parts.length ? parts.join(' ') : null,
    words,
  };
};
