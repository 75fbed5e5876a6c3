import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';

/**
 * workerd reports a client that went away mid-response (a browser closing a tab or cancelling a
 * request) as a kj exception, `…: disconnected: ::writev(…): Broken pipe`, followed by its stack.
 * That is no error of the app, so `npm start` keeps it out of the terminal; anything else workerd
 * or the Worker prints still shows.
 */
const DISCONNECT = /(\bdisconnected\b|\.c\+\+:\d+).*\b(Broken pipe|Connection reset by peer)\b/;
// What follows such a line and belongs to it: its stack (`stack: 7f12 …`, bare addresses, indented frames).
const CONTINUATION = /^(\s+\S|stack:|(0x)?[0-9a-f]{6,}(\s+(0x)?[0-9a-f]{6,})*\s*$)/i;

/** A line filter with memory: drops a disconnect report and the stack lines right after it. */
export const disconnectFilter = () => {
  let inTrace = false;
  return (line: string) => {
    if (DISCONNECT.test(line)) {
      inTrace = true;
      return false;
    }
    if (inTrace && CONTINUATION.test(line)) return false;
    inTrace = false;
    return true;
  };
};

/** Miniflare's `handleRuntimeStdio` for `npm start`: workerd's output line by line, without disconnect traces. */
export const printRuntimeOutput = (stdout: Readable, stderr: Readable) => {
  for (const [stream, print] of [
    [stdout, console.log],
    [stderr, console.error],
  ] as const) {
    const keep = disconnectFilter();
    createInterface({ input: stream }).on('line', (line) => {
      if (keep(line)) print(line);
    });
  }
};
