/**
 * What a person changed in an edit form, measured against the values the form was loaded from,
 * so a save sends only those fields and a colleague's changes to other fields survive it.
 */
export type FormValues = Record<string, unknown>;

/** Whose value a field both people changed should keep. */
export type Choice = 'theirs' | 'mine';

/** A field both people changed, to different values. */
export interface Clash {
  field: string;
  theirs: unknown;
  mine: unknown;
}

// The record's identity travels with every PATCH that names it in the body (`PATCH users`).
const ALWAYS_SENT = ['id'];

// A cleared text box reads undefined in react-final-form, an empty one loaded as '' or null.
const blank = (value: unknown) => (value === undefined || value === '' ? null : value);

const same = (a: unknown, b: unknown) => {
  const left = blank(a);
  const right = blank(b);
  return left === right || (typeof left === 'object' && typeof right === 'object' && JSON.stringify(left) === JSON.stringify(right));
};

/** The fields whose value differs from the one the form was loaded with. */
export const changedFields = (loaded: FormValues, mine: FormValues) =>
  Object.keys({ ...loaded, ...mine }).filter((field) => !ALWAYS_SENT.includes(field) && !same(loaded[field], mine[field]));

/** A field cleared in the form goes out empty, since JSON would drop an undefined one. */
const sendable = (loaded: unknown, mine: unknown) => (mine !== undefined ? mine : typeof loaded === 'string' ? '' : null);

/** The PATCH body: the fields the person changed (and the record's id when the form holds it). */
export const patchOf = (loaded: FormValues, mine: FormValues, leaveOut: readonly string[] = []): FormValues => ({
  ...Object.fromEntries(ALWAYS_SENT.filter((field) => field in mine).map((field) => [field, mine[field]])),
  ...Object.fromEntries(changedFields(loaded, mine).filter((field) => !leaveOut.includes(field)).map((field) => [field, sendable(loaded[field], mine[field])])),
});

/** Whether a PATCH body holds no change at all, only the record's identity. */
export const writesNothing = (body: FormValues) => Object.keys(body).every((field) => ALWAYS_SENT.includes(field));

/** The fields both the person and the other saver changed, each to a different value. */
export const clashesOf = (loaded: FormValues, mine: FormValues, theirs: FormValues): Clash[] =>
  changedFields(loaded, mine)
    .filter((field) => field in theirs && !same(theirs[field], loaded[field]) && !same(theirs[field], mine[field]))
    .map((field) => ({ field, theirs: theirs[field], mine: mine[field] }));

/** "Overwrite with mine": the person's changes over their version, less the clashes they gave to the other person. */
export const overwriteOf = (loaded: FormValues, mine: FormValues, theirs: FormValues, picks: Partial<Record<string, Choice>>) =>
  patchOf(
    loaded,
    mine,
    clashesOf(loaded, mine, theirs)
      .filter((clash) => picks[clash.field] === 'theirs')
      .map((clash) => clash.field),
  );
