import type { FormApi } from 'final-form';
import { useEffect, useRef } from 'react';
import type { AuditAction, AuditEntity } from '../../../shared/types';
import { authState } from '../auth-store';
import { editedRecords, holdView, liveState, onLive, recordKey } from './bus';

interface LiveRecord<R> {
  entity: AuditEntity;
  id: number;
  version: number | undefined;
  /** Reads the record as it now is. */
  read?: (id: number) => Promise<R>;
  /** Shows it in a clean form (and everywhere else on the page). */
  onReload?: (current: R) => void;
  /**
   * A row inside the record (a ticket's comment or time entry): `version` and `read` are the row's,
   * while presence and live events are the record's, whose versions say nothing about the row.
   */
  row?: { action: AuditAction };
}

const versionOf = (record: unknown) => (record as { version?: number }).version;

/**
 * An edit form on the live channel: says the person is on the record (and editing while the form
 * is dirty; a dialog's form over the record's drawer keeps them on the same record),
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
  const row = record?.row !== undefined;

  useEffect(() => {
    if (!entity || !id || !form) return undefined;
    const key = recordKey(entity, id);
    // The list refresh leaves an edited record alone, so no re-read can replace unsaved edits; a
    // form without `read` then learns of another save when it saves, as before live updates. A
    // row's form keeps its own values, and must not take its record's form out of this set.
    if (!row) editedRecords.add(key);
    const view = holdView(entity, id);
    const stopWatching = form.subscribe(({ dirty }) => view.editing(dirty === true), { dirty: true });
    const check = async (actorName: string | null) => {
      const { record: current, conflict: showConflict } = latest.current;
      if (!current?.read) return;
      const now = await current.read(current.id);
      if (versionOf(now) === current.version) return;
      if (form.getState().dirty) showConflict(now);
      else {
        // "Updated by" sits by the record's own form; a row's dialog just shows the row as it is.
        if (actorName && !row) liveState.updatedBy[key] = actorName;
        current.onReload?.(now);
      }
    };
    // A record that cannot be read now (deleted, offline) is left as shown: its save will say why.
    const checkQuietly = (actorName: string | null) => void check(actorName).catch(() => undefined);
    const stopListening = onLive((message) => {
      const shown = latest.current.record?.version;
      if (message.type === 'resync') checkQuietly(null);
      if (message.type !== 'changed' || message.entity !== entity || message.id !== id) return;
      if (message.actorId === authState.user?.id) return;
      if (!row && message.version !== null && shown !== undefined && message.version <= shown) return;
      checkQuietly(message.actorName);
    });
    return () => {
      stopWatching();
      stopListening();
      if (!row) editedRecords.delete(key);
      view.release();
    };
  }, [entity, id, form, row]);
};
