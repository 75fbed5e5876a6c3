import { FORM_ERROR, setIn, type SubmissionErrors } from 'final-form';
import { useRef, useState } from 'react';
import { ApiError, CONFLICT_MESSAGE, conflictRecord } from '../api';
import { notify } from '../toast/notify';
import { holdFocus } from './keep-focus';

/** A toast's title and optional description line. */
export type ToastText = readonly [title: string, description?: string];

export interface Mutation<V, R> {
  /** The request. `ifMatch` is the version of the record the form was loaded with, sent as If-Match. */
  send: (values: V, ifMatch: number | undefined) => Promise<R>;
  /** The success toast. */
  success: (result: R, values: V) => ToastText;
  /** The error toast: its title (the error's message becomes the description), or the whole toast. */
  failure: string | ((error: Error) => ToastText);
  /** After the success toast: refresh lists, close a dialog, open the new record. */
  onSuccess?: (result: R, values: V) => unknown;
  /** After the error toast, e.g. reload what the refusal showed to be stale. Not called on a 412. */
  onFailure?: (error: Error) => unknown;
}

/** What a submit came to; `errors` are react-final-form submit errors. */
export type Outcome<R> =
  | { kind: 'saved'; result: R }
  | { kind: 'conflict'; current: R; errors: SubmissionErrors }
  | { kind: 'failed'; error: Error; errors: SubmissionErrors }
  /** A second submit while the first still runs (a double click) is refused without a request. */
  | { kind: 'busy' };

/** A record's `version` (docs/architecture.md#record-versions), when it has one. */
const versionOf = (record: unknown): number | undefined =>
  record && typeof record === 'object' && 'version' in record && typeof record.version === 'number' ? record.version : undefined;

/**
 * The provider's field errors (`errors: { field: message | messages }` in a 400 or 409 body) as
 * react-final-form submit errors, first message per field; nested paths (`lines[0].quantity`) kept.
 */
export const fieldErrorsOf = (error: unknown): Record<string, unknown> => {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object' || !('errors' in error.body)) return {};
  const { errors } = error.body;
  if (!errors || typeof errors !== 'object') return {};
  return Object.entries(errors).reduce<Record<string, unknown>>((all, [path, messages]) => {
    const first: unknown = Array.isArray(messages) ? messages[0] : messages;
    return typeof first === 'string' && first ? (setIn(all, path, first) as Record<string, unknown>) : all;
  }, {});
};

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

const failureToast = (failure: Mutation<unknown, unknown>['failure'], error: Error): ToastText =>
  typeof failure === 'function' ? failure(error) : [failure, error.message];

/**
 * The one way the app writes: runs a mutation once at a time, shows its success or error toast,
 * turns the provider's field errors into submit errors (so they show under their fields and the
 * typed input stays), and catches a 412 as a conflict to show in the form instead of a toast.
 * `version` is the version of the record being edited, sent as If-Match; a conflict's record
 * brings the version that "Overwrite with mine" sends.
 */
export function useMutation<V, R>(mutation: Mutation<V, R>, version?: number) {
  const running = useRef(false);
  // This form's last error toast, taken down when a retry succeeds so it does not outlive the fix.
  const errorToast = useRef<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState<R | null>(null);
  // Whether the conflict refused a save (412), or was seen before any save (a live change).
  const [refused, setRefused] = useState(false);
  // The version to send; it follows the record the form was loaded with until a conflict or save moves it.
  const [own, setOwn] = useState({ loaded: version, current: version });
  const base = own.loaded === version ? own.current : version;

  /**
   * `settle` runs after a success and before `onSuccess`, so a form is clean before any navigation.
   * `body` is what goes to the server when it is less than the form's values (only the changed fields).
   */
  const attempt = async (values: V, ifMatch: number | undefined, settle?: (result: R) => void, body: V = values): Promise<Outcome<R>> => {
    if (running.current) return { kind: 'busy' };
    running.current = true;
    setBusy(true);
    const giveFocusBack = holdFocus();
    try {
      const result = await mutation.send(body, ifMatch);
      setConflict(null);
      setRefused(false);
      setOwn({ loaded: version, current: versionOf(result) ?? ifMatch });
      settle?.(result);
      if (errorToast.current !== null) notify.dismiss(errorToast.current);
      errorToast.current = null;
      notify.success(...mutation.success(result, values));
      await mutation.onSuccess?.(result, values);
      return { kind: 'saved', result };
    } catch (caught) {
      const current = conflictRecord(caught) as R | null;
      if (current !== null) {
        setConflict(current);
        setRefused(true);
        return { kind: 'conflict', current, errors: { [FORM_ERROR]: CONFLICT_MESSAGE } };
      }
      const error = asError(caught);
      errorToast.current = notify.error(...failureToast(mutation.failure as Mutation<unknown, unknown>['failure'], error));
      await mutation.onFailure?.(error);
      return { kind: 'failed', error, errors: { ...fieldErrorsOf(error), [FORM_ERROR]: error.message } };
    } finally {
      running.current = false;
      setBusy(false);
      giveFocusBack();
    }
  };

  return {
    busy,
    /** The record as someone else saved it, after a 412 or a live change; null otherwise. */
    conflict,
    /** Whether a save was refused over the conflict (412), rather than it showing before any save. */
    refused,
    /** Runs the mutation with the record's current version. */
    run: (values: V, settle?: (result: R) => void, body?: V) => attempt(values, base, settle, body),
    /** After a conflict: sends these values (or `body`) again over the other person's version. */
    overwrite: (values: V, settle?: (result: R) => void, body?: V) => attempt(values, conflict === null ? base : (versionOf(conflict) ?? base), settle, body),
    /** Shows the conflict notice before any save: someone else saved the record while this form was dirty. */
    showConflict: (current: R) => setConflict(current),
    /** After a conflict: takes their version as the one to edit; returns it for the form to show. */
    acceptTheirs: () => {
      if (conflict === null) return null;
      setOwn({ loaded: version, current: versionOf(conflict) ?? base });
      setConflict(null);
      setRefused(false);
      return conflict;
    },
  };
}

/**
 * An action that is not a form (deactivate, delete, issue): the same toasts, one run at a time. A
 * 412 has no form to show it in, so it is an error toast, and `onConflict` shows the record as it now is.
 */
export const useAction = <V, R>(mutation: Mutation<V, R> & { onConflict?: (current: R) => unknown }) => {
  const { busy, run } = useMutation(mutation);
  return {
    busy,
    run: async (values: V) => {
      const outcome = await run(values);
      if (outcome.kind === 'conflict') {
        notify.error(...failureToast(mutation.failure as Mutation<unknown, unknown>['failure'], new Error(CONFLICT_MESSAGE)));
        await mutation.onConflict?.(outcome.current);
      }
      return outcome.kind === 'saved';
    },
  };
};
