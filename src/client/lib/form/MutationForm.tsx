import type { FormApi, ValidationErrors } from 'final-form';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form, type FormRenderProps } from 'react-final-form';
import type { AuditAction, AuditEntity } from '../../../shared/types';
import type { ValueFormats } from '../audit/describe';
import { changedFields, clashesOf, overwriteOf, patchOf, writesNothing, type Choice, type FormValues } from './changes';
import { RecordPresence } from '../live/RecordPresence';
import { useLiveRecord } from '../live/use-live-record';
import { ConflictNotice } from './ConflictNotice';
import { clearDraft, readDraft, writeDraft, type Draft } from './drafts';
import { guardForm, useGuardScope, type GuardedForm } from './unsaved';
import { useMutation, type Mutation } from './use-mutation';

/** The record a form edits: its version goes out as If-Match, and a 412 says who changed it. */
export interface EditedRecord<V, R> {
  entity: AuditEntity;
  id: number;
  version: number | undefined;
  /** The form's values for the record as it now is, for "Reload their version". */
  valuesOf: (current: R) => Partial<V>;
  /** Lets the page show the reloaded record everywhere else too. */
  onReload?: (current: R) => void;
  /** Readable values in the notice's list of their changes. */
  formats?: ValueFormats;
  /** Reads the record (by its id) as it now is, when someone else saves it while the form is open. */
  read?: (id: number) => Promise<R>;
  /**
   * A row inside the record, such as a ticket's comment or time entry: `entity` and `id` are the
   * record's (presence and live events are per ticket), `version` and `read` the row's own, and
   * `action` the history entries the row's saves write.
   */
  row?: { action: AuditAction };
}

interface MutationFormProps<V extends object, R> {
  mutation: Mutation<V, R>;
  initialValues: Partial<V>;
  validate?: (values: V) => ValidationErrors | Promise<ValidationErrors>;
  record?: EditedRecord<V, R>;
  /** Long text fields kept as a draft under `key` (one per record) until saved. */
  draft?: { key: string; fields: readonly (keyof V & string)[] };
  /** After a save, the values the form starts again from (an empty comment box); by default the saved ones. */
  next?: (saved: V) => Partial<V>;
  children: (props: FormRenderProps<V>) => ReactNode;
}

/** What they changed, field by field, from the values the form was loaded with. */
const changesOf = (loaded: FormValues, theirs: FormValues) =>
  Object.fromEntries(changedFields(loaded, theirs).map((field): [string, [unknown, unknown]] => [field, [loaded[field], theirs[field]]]));

/** Text of the draft fields that differs from what the form started with. */
const draftOf = <V extends object>(form: FormApi<V>, fields: readonly string[]): Draft => {
  const { values, initialValues } = form.getState();
  const now = values as Record<string, unknown>;
  const start = (initialValues ?? {}) as Record<string, unknown>;
  return Object.fromEntries(fields.filter((field) => typeof now[field] === 'string' && now[field] !== start[field]).map((field) => [field, now[field] as string]));
};

/** Keeps the form registered with the unsaved-changes guard, and its draft stored and restored. */
function FormWatch<V extends object, R>({ form, draft, record, conflict }: { form: FormApi<V>; draft: MutationFormProps<V, unknown>['draft']; record?: EditedRecord<V, R>; conflict: (current: R) => void }) {
  useLiveRecord(record, form, conflict);
  const scope = useGuardScope();
  const key = draft?.key;
  const fields = useRef(draft?.fields ?? []);
  // Per mount, not per effect run: a layer opened on top may hide this one and run its effects
  // again, and the entry the guard asked about must be the one that learns it was discarded.
  const mount = useRef({ restored: false, discarded: false });
  const entry = useRef<GuardedForm | null>(null);
  useEffect(() => {
    const state = mount.current;
    if (key && !state.restored) {
      state.restored = true;
      const stored = readDraft(key);
      if (stored) form.batch(() => fields.current.filter((field) => field in stored).forEach((field) => form.change(field, stored[field] as V[typeof field])));
    }
    // Once discarded, the form only waits to unmount; its fields unregistering must not write the draft back.
    const stopWatching = key
      ? form.subscribe(() => {
          if (!state.discarded) writeDraft(key, draftOf(form, fields.current));
        }, { values: true })
      : () => undefined;
    entry.current ??= {
      isDirty: () => !state.discarded && form.getState().dirty === true,
      keys: scope.keys,
      discard: () => {
        state.discarded = true;
        if (key) clearDraft(key);
      },
    };
    const unguard = guardForm(entry.current, scope);
    return () => {
      stopWatching();
      unguard();
    };
  }, [form, key, scope]);
  return null;
}

/**
 * A form that writes through `useMutation`: the submit is disabled while it runs, the outcome is
 * toasted, the provider's field errors show under their fields, nothing typed is lost on a
 * failure, a 412 shows who changed the record with "Reload their version" and "Overwrite with
 * mine", and leaving it dirty asks first.
 */
export function MutationForm<V extends object, R>({ mutation, initialValues, validate, record, draft, next, children }: MutationFormProps<V, R>) {
  const save = useMutation(mutation, record?.version);
  const overwriting = useRef(false);
  // For each field both people changed: whose value the overwrite keeps.
  const [choices, setChoices] = useState<Partial<Record<string, Choice>>>({});
  const theirs = record && save.conflict !== null ? (record.valuesOf(save.conflict) as FormValues) : null;

  /** "Reload their version": the form shows the record as they saved it, and edits from there. */
  const takeTheirs = (form: FormApi<V>) => {
    const current = save.acceptTheirs();
    if (current === null || !record) return;
    if (draft) clearDraft(draft.key);
    setChoices({});
    form.restart(record.valuesOf(current));
    record.onReload?.(current);
  };

  const settle = (form: FormApi<V>, values: V, result: R) => {
    if (draft) clearDraft(draft.key);
    // Only the changed fields went out: the saved record holds everyone's, so the form starts from it.
    form.restart(next ? next(values) : record ? { ...values, ...record.valuesOf(result) } : values);
  };

  const onSubmit = async (values: V, form: FormApi<V>) => {
    const overwrite = overwriting.current;
    overwriting.current = false;
    const loaded = (form.getState().initialValues ?? {}) as FormValues;
    const mine = values as FormValues;
    // An edit sends only what this person changed since the form was loaded; on an overwrite, less
    // the fields both changed where they gave the other person's value the preference. The update
    // schemas take any subset of their fields, so the partial body is a valid V for the server.
    const body = record ? ((overwrite && theirs ? overwriteOf(loaded, mine, theirs, choices) : patchOf(loaded, mine)) as V) : values;
    const outcome = await (overwrite ? save.overwrite : save.run)(values, (result) => settle(form, values, result), body);
    if (outcome.kind !== 'conflict') setChoices({});
    return outcome.kind === 'failed' || outcome.kind === 'conflict' ? outcome.errors : undefined;
  };

  return (
    <Form<V>
      onSubmit={onSubmit}
      validate={validate}
      initialValues={initialValues}
      render={(props) => (
        <form onSubmit={props.handleSubmit} noValidate>
          {record ? <RecordPresence entity={record.entity} id={record.id} /> : null}
          {record && theirs ? (
            <ConflictNotice
              entity={record.entity}
              entityId={record.id}
              row={record.row ? { action: record.row.action, changes: changesOf((props.form.getState().initialValues ?? {}) as FormValues, theirs) } : undefined}
              refused={save.refused}
              formats={record.formats}
              busy={props.submitting === true}
              clashes={clashesOf((props.form.getState().initialValues ?? {}) as FormValues, props.values as FormValues, theirs)}
              choices={choices}
              onChoose={(field, choice) => setChoices((all) => ({ ...all, [field]: choice }))}
              onReload={() => takeTheirs(props.form)}
              onOverwrite={() => {
                // Every field of theirs kept: nothing of this person's is left to write over them.
                const loaded = (props.form.getState().initialValues ?? {}) as FormValues;
                if (writesNothing(overwriteOf(loaded, props.values as FormValues, theirs, choices))) {
                  takeTheirs(props.form);
                  return;
                }
                overwriting.current = true;
                void props.form.submit();
              }}
            />
          ) : null}
          {children(props)}
          {/* Last, so its effect runs once every field has registered (a field registering later would reset a restored draft). */}
          <FormWatch form={props.form} draft={draft} record={record} conflict={save.showConflict} />
        </form>
      )}
    />
  );
}
