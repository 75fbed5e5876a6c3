import type { FormApi, ValidationErrors } from 'final-form';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Form, type FormRenderProps } from 'react-final-form';
import type { AuditEntity } from '../../../shared/types';
import type { ValueFormats } from '../audit/describe';
import { clashesOf, overwriteOf, patchOf, type Choice, type FormValues } from './changes';
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
              formats={record.formats}
              busy={props.submitting === true}
              clashes={clashesOf((props.form.getState().initialValues ?? {}) as FormValues, props.values as FormValues, theirs)}
              choices={choices}
              onChoose={(field, choice) => setChoices((all) => ({ ...all, [field]: choice }))}
              onReload={() => {
                const current = save.acceptTheirs();
                if (current === null) return;
                if (draft) clearDraft(draft.key);
                setChoices({});
                props.form.restart(record.valuesOf(current));
                record.onReload?.(current);
              }}
              onOverwrite={() => {
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
