import { Badge, Box } from '@mantine/core';
import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { useSnapshot } from 'valtio';
import type { AuditEntity } from '../../../shared/types';
import { editedRecords, liveState, onLive, recordKey } from './bus';
import { startLive } from './connection';
import { recordOfPath, showsChange } from './entity-paths';

/** Changes arriving close together are re-read once. */
const REREAD_AFTER_MS = 200;

const notEdited = (key: string) => !editedRecords.has(recordOfPath(key) ?? '');

/**
 * The live channel for a signed-in person (its own lazy chunk, loaded after sign-in): opens the
 * socket, re-reads in place the mounted lists a change touches and the changed records themselves
 * (SWR keeps the page, scroll, selection and focus, as nothing remounts), also for the changes a
 * catch-up after a gap passes on, keeps presence, and shows a quiet badge while offline.
 */
export default function LiveRoot() {
  const { mutate } = useSWRConfig();
  const { status } = useSnapshot(liveState);

  useEffect(() => {
    // Entity → the ids changed since the last re-read.
    let touched = new Map<AuditEntity, Set<number>>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const reread = () => {
      timer = undefined;
      const changed = touched;
      touched = new Map();
      void mutate((key) => typeof key === 'string' && showsChange(key, changed) && notEdited(key));
    };
    const stopListening = onLive((message) => {
      if (message.type === 'changed') {
        touched.set(message.entity, (touched.get(message.entity) ?? new Set()).add(message.id));
        timer ??= setTimeout(reread, REREAD_AFTER_MS);
      } else if (message.type === 'resync') {
        void mutate((key) => typeof key === 'string' && notEdited(key));
      } else if (message.type === 'presence') {
        liveState.presence[recordKey(message.entity, message.id)] = message.people;
      } else if (message.type === 'notification' || message.type === 'caughtUp') {
        void mutate((key) => typeof key === 'string' && key.startsWith('notifications'));
      }
    });
    const stop = startLive();
    return () => {
      stopListening();
      stop();
      clearTimeout(timer);
    };
  }, [mutate]);

  return status === 'offline' ? (
    // On a phone the header has room for "Offline" alone, beside the bell and the account menu.
    <Badge color="gray" variant="light" role="status" data-testid="live-offline" style={{ flexShrink: 0 }}>
      Offline
      <Box component="span" visibleFrom="sm">
        , reconnecting…
      </Box>
    </Badge>
  ) : null;
}
