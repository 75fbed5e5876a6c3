import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { edgeFront } from '../../scripts/edge-front';

// The front `npm start` puts before workerd keeps connections to it open between requests.
// workerd closes one that sat idle for 5 s without announcing it, so a request can go out on a
// connection at the moment it closes. This target answers like workerd (Content-Length, no
// Keep-Alive header) and can close a connection at the worst moment, or never.
interface Target {
  port: number;
  /** Connections the front itself closed. */
  closedByFront: () => number;
  close: () => Promise<void>;
}

const startTarget = (closeOnSecondRequest: boolean) =>
  new Promise<Target>((resolve) => {
    let closedByFront = 0;
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      let requests = 0;
      let buffered = '';
      socket.on('data', (chunk) => {
        buffered += chunk.toString('latin1');
        while (buffered.includes('\r\n\r\n')) {
          buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
          requests += 1;
          if (closeOnSecondRequest && requests === 2) return void socket.destroy();
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok');
        }
      });
      socket.on('end', () => {
        closedByFront += 1;
        socket.end();
      });
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as net.AddressInfo;
      resolve({
        port: address.port,
        closedByFront: () => closedByFront,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of running.splice(0)) await stop();
});

const frontFor = async (target: Target) => {
  const port = await freePort();
  const front = await edgeFront({ port, host: '127.0.0.1', target: new URL(`http://127.0.0.1:${target.port}`) });
  running.push(() => front.close(), () => target.close());
  return `http://127.0.0.1:${port}`;
};

it('sends a request again on a new connection when the reused one closes as it goes out', async () => {
  const base = await frontFor(await startTarget(true));
  const first = await fetch(`${base}/api/v1/dashboard`);
  expect([first.status, await first.text()]).toEqual([200, 'ok']);
  // The front sends this one down the connection it kept, which the target closes unanswered.
  const second = await fetch(`${base}/api/v1/dashboard`);
  expect([second.status, await second.text()]).toEqual([200, 'ok']);
});

it('closes its idle connections to the Worker before workerd would', async () => {
  const target = await startTarget(false);
  const base = await frontFor(target);
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  await expect.poll(() => target.closedByFront(), { timeout: 10_000, interval: 200 }).toBe(1);
});
