/**
 * Drafts of long text (a ticket's description, a comment) kept per record in session storage until
 * they are saved, so a reload, a crash or a closed drawer does not take them. Session storage is
 * per tab and goes with it; storage that is full or disabled only means no draft.
 */
const PREFIX = 'staff-app-draft:';

export type Draft = Record<string, string>;

export const readDraft = (key: string): Draft | null => {
  try {
    const raw = sessionStorage.getItem(PREFIX + key);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (!parsed || typeof parsed !== 'object') return null;
    const entries = Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return entries.length ? Object.fromEntries(entries) : null;
  } catch {
    return null;
  }
};

export const writeDraft = (key: string, draft: Draft) => {
  try {
    if (Object.keys(draft).length) sessionStorage.setItem(PREFIX + key, JSON.stringify(draft));
    else sessionStorage.removeItem(PREFIX + key);
  } catch {
    // Full or blocked storage: the form still works, only without a draft.
  }
};

export const clearDraft = (key: string) => writeDraft(key, {});
