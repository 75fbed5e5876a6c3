import type { FormApi } from 'final-form';
import { useEffect, useRef } from 'react';
import type { AuditEntity } from '../../../shared/types';
import { authState } from '../auth-store';
import { editedRecords, liveState, onLive, recordKey, sendView } from './bus';

interface LiveRecord<R> {
  entity: AuditEntity;
  id: number;
  version: number | undefined;
  /** Reads the record as it now is. */
  read?: (id: number) => Promise<R>;
  /** Shows it in a clean form (and everywhere else on the page). */
  onReload?: (current: R) => void;
}

const versionOf = (record: unknown) => (record as { version?: number }).version;

/**
 * An edit form on the live channel: says the person is here (and editing while the form is dirty),
 * and when someone else saves the record, re-reads it into a clean form with "Updated by <name>",
 * or shows a dirty one the conflict notice at once.
 */
export const useLiveRecord = <V, R>(record: LiveRecord<R> | undefined, form: FormApi<V> | null, conflict: (current: R) => void) => {
  const latest = useRef({ record, conflict });
  useEffect(() => {
    latest.current = { record, conflict };
  });
  const entity = record?.entity;
  const id = record?.id;

  useEffect(() => {
    if (!entity || !id || !form) return undefined;
    const key = recordKey(entity, id);
    // The list refresh leaves an edited record alone, so no re-read can replace unsaved edits; a
    // form without `read` then learns of another save when it saves, as before live updates.
    editedRecords.add(key);
    const tell = () => sendView({ type: 'view', entity, id, editing: form.getState().dirty === true });
    const stopWatching = form.subscribe(tell, { dirty: true });
    const check = async (actorName: string | null) => {
      const { record: current, conflict: showConflict } = latest.current;
      if (!current?.read) return;
      const now = await current.read(current.id);
      if (versionOf(now) === current.version) return;
      if (form.getState().dirty) showConflict(now);
      else {
        if (actorName) liveState.updatedBy[key] = actorName;
        current.onReload?.(now);
      }
    };
    const stopListening = onLive((message) => {
      const shown = latest.current.record?.version;
      if (message.type === 'resync') void check(null);
      if (message.type !== 'changed' || message.entity !== entity || message.id !== id) return;
      if (message.actorId === authState.user?.id || (message.version !== null && shown !== undefined && message.version <= shown)) return;
      void check(message.actorName);
    });
    return () => {
      stopWatching();
      stopListening();
      editedRecords.delete(key);
      sendView({ type: 'view', entity: null });
    };
  }, [entity, id, form]);
};
