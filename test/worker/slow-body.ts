import { sleep } from './support';

/**
 * A request body that arrives in `pieces` pieces `gapMs` apart, as from a slow uplink. With
 * `breakAfter` it fails after that many pieces (instead of ending after its last), as when the
 * sender goes away mid-upload. `sent.whole` says whether it was read to its end; `sent.settled`
 * resolves when it was, or when its reader gave it up.
 */
export const trickle = (bytes: Uint8Array, pieces: number, gapMs: number, { breakAfter = Infinity } = {}) => {
  let settle: (how: 'whole' | 'given up') => void = () => undefined;
  const settled = new Promise<'whole' | 'given up'>((resolve) => (settle = resolve));
  const sent = { pieces: 0, whole: false, settled };
  const size = Math.ceil(bytes.length / pieces);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent.pieces > 0) await sleep(gapMs);
      if (sent.pieces >= breakAfter) return controller.error(new Error('the sender went away'));
      const at = sent.pieces * size;
      sent.pieces += 1;
      controller.enqueue(bytes.slice(at, at + size));
      if (at + size < bytes.length || sent.pieces >= breakAfter) return;
      controller.close();
      sent.whole = true;
      settle('whole');
    },
    cancel() {
      settle('given up');
    },
  });
  return Object.assign(body, { sent });
};

/**
 * A body of `bytes` bytes made as it is read, 1 MiB a piece; `pulled` counts what was read of it.
 */
export const lazyBody = (bytes: number) => {
  const piece = new Uint8Array(1024 * 1024).fill(0x61);
  const state = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(piece.length, bytes - state.pulled);
      state.pulled += size;
      controller.enqueue(piece.slice(0, size));
      if (state.pulled >= bytes) controller.close();
    },
  });
  return Object.assign(body, { state });
};
