import type { KeyedMutator } from 'swr';
import { conflictRecord } from './api';

/** How one read shows a change: at once, with the server's answer, and after a 412. */
export interface ShownChange<T, R> {
  /** The read with the change made, painted on the next frame. */
  now: (data: T) => T;
  /** The read with the server's answer; without it, the change as made stays. */
  answered?: (data: T, result: R) => T;
  /** After a 412: the read with the record as it now is (its body), instead of the old value. */
  conflict?: (data: T, current: R) => T;
}

/**
 * Shows `request`'s change in one SWR read before the answer (docs/architecture.md#instant-edits):
 * `now` on the next frame, the answer once it lands, and the data as it was before on a refusal
 * (SWR's `rollbackOnError`), except that a 412 shows the record as it now is, as a form's
 * conflict does. It never throws: the caller awaits `request` itself to say what happened. A read
 * that holds nothing yet is left alone; the change shows once it loads from the server.
 */
export const showBeforeAnswer = async <T, R>(read: { data?: T; mutate: KeyedMutator<T> }, request: Promise<R>, change: ShownChange<T, R>) => {
  if (read.data === undefined) return;
  const keep = (data: T | undefined, next: (data: T) => T) => (data === undefined ? read.data : next(data)) as T;
  // SWR hands the function the data as it was before the change was shown.
  const answer = async (data: T | undefined) => {
    const result = await request;
    return keep(data, (shown) => (change.answered ? change.answered(shown, result) : change.now(shown)));
  };
  await read.mutate(answer, {
    optimisticData: (data) => keep(data, change.now),
    rollbackOnError: (error) => !change.conflict || conflictRecord(error) === null,
    revalidate: false,
    throwOnError: false,
  });
  const current = await request.then(
    () => null,
    (error: unknown) => conflictRecord(error),
  );
  const { conflict } = change;
  if (current !== null && conflict) await read.mutate((data) => keep(data, (shown) => conflict(shown, current as R)), { revalidate: false });
};
