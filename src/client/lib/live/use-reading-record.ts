import { useEffect } from 'react';
import type { AuditEntity } from '../../../shared/types';
import { authState } from '../auth-store';
import { holdView, liveState, onLive, recordKey } from './bus';

/**
 * A record open to read, with no form on it: others see the person on it (not editing), and a
 * colleague's save, which the page's live refresh shows at once, says "Updated by <name>" as an
 * edit form's re-read does.
 */
export const useReadingRecord = (entity: AuditEntity, id: number) => {
  useEffect(() => {
    const view = holdView(entity, id);
    const stopListening = onLive((message) => {
      if (message.type !== 'changed' || message.entity !== entity || message.id !== id) return;
      if (message.actorId === authState.user?.id || !message.actorName) return;
      liveState.updatedBy[recordKey(entity, id)] = message.actorName;
    });
    return () => {
      stopListening();
      view.release();
    };
  }, [entity, id]);
};
