import WebSocket from 'ws';

interface Target {
  title: string;
  webSocketDebuggerUrl: string;
}

/**
 * The app's own Worker in a workerd started with an inspector port: Miniflare names it
 * `core:user:<name>`, and the D1 and R2 simulators beside it are separate isolates.
 */
export const connectToWorker = async (inspectorPort: number) => {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as Target[];
  const target = targets.find((t) => /worker core:user:/.test(t.title));
  if (!target) throw new Error(`no user Worker among the inspector's targets: ${targets.map((t) => t.title).join(', ')}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let lastId = 0;
  const pending = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
    if (message.id !== undefined) pending.delete(message.id);
  });
  const call = <T>(method: string) =>
    new Promise<T>((resolve) => {
      const id = ++lastId;
      pending.set(id, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    /** Bytes of the Worker's JavaScript heap in use, garbage not yet collected included. */
    heapUsed: async () => (await call<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize,
    close: () => socket.close(),
  };
};
