import type { LiveChanges } from '../../../shared/live';
import { callApi } from '../endpoints';
import { emitLive } from './bus';

/**
 * After a gap in the socket (docs/architecture.md#live-updates): asks what changed since the last
 * seq this tab was told of and passes each change on as the socket would have, so the open views
 * re-read only the records and lists it names, and the bell its notifications, which have no seq.
 * With no seq to start from, more changes than the answer lists, or no answer at all, a `resync`
 * re-reads everything open, as before. Answers the seq to carry on from.
 */
export const catchUp = async (after: number | null): Promise<number | null> => {
  if (after === null) {
    emitLive({ type: 'resync' });
    return null;
  }
  let answer: LiveChanges;
  try {
    answer = await callApi('GET /live/changes', { query: { after } });
  } catch {
    emitLive({ type: 'resync' });
    return after;
  }
  if (answer.reload) emitLive({ type: 'resync' });
  else {
    for (const change of answer.changes) emitLive(change);
    emitLive({ type: 'caughtUp' });
  }
  return answer.seq;
};
