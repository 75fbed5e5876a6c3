import http from 'node:http';
import net from 'node:net';
import { Duplex } from 'node:stream';
import { serveBuilt, type ServeOptions } from './serve';

/**
 * The connecting address as Cloudflare's edge reports it: the socket's own, IPv4 without the
 * IPv6-mapped prefix Node gives it on a dual-stack socket.
 */
export const connectingAddress = (socket: net.Socket) => (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/** The request's headers with CF-Connecting-IP set from the socket, whatever the client sent. */
const edgeHeaders = (req: http.IncomingMessage) => ({ ...req.headers, 'cf-connecting-ip': connectingAddress(req.socket) });

// How long a connection whose write failed waits for the rest of the answer before it is closed.
const AFTER_FAILED_WRITE_MS = 5_000;
// workerd closes a connection idle for 5 s without a Keep-Alive header to say so; the front lets
// its idle connections go first, so a request is not sent down one as workerd closes it.
const IDLE_CONNECTION_MS = 4_000;

/**
 * A connection to the Worker that survives the Worker answering before it has read the request's
 * body. workerd then resets the connection on the unread bytes, and a plain socket closes itself
 * on the next write's failure, before reading the answer that arrived ahead of the reset: the
 * front would say 502 instead of passing on, say, the Worker's 413 to an oversized body. Here a
 * failed write is dropped (the client's remaining body is read and discarded), the socket stays
 * open to read what the Worker sent, and the reset read after it ends the connection. An answer
 * cut short still fails as one.
 */
const forgivingConnection = (options: net.NetConnectOpts) => {
  let failedWrite = false;
  const outer = new Duplex({
    write(chunk: Buffer, encoding, callback) {
      if (failedWrite || inner.destroyed) return callback();
      inner.write(chunk, encoding, () => callback());
    },
    final(callback) {
      if (!failedWrite) inner.end();
      callback();
    },
    read() {
      inner.resume();
    },
    destroy(error, callback) {
      close();
      callback(error);
    },
  });
  // Read through `onread`: a socket whose write failed no longer passes on what it reads.
  const inner = net.connect({
    ...options,
    onread: { buffer: Buffer.alloc(64 * 1024), callback: (bytes, buffer) => outer.push(Buffer.from(buffer.subarray(0, bytes))) },
  });
  const close = inner.destroy.bind(inner);
  inner.destroy = (error?: Error) => {
    if ((error as NodeJS.ErrnoException | undefined)?.syscall !== 'write') return close(error);
    failedWrite = true;
    setTimeout(close, AFTER_FAILED_WRITE_MS).unref();
    return inner;
  };
  inner.on('error', () => undefined);
  inner.on('end', () => outer.push(null));
  // Closed, the connection leaves the agent's pool once what it had received has been read.
  inner.on('close', () => outer.push(null));
  outer.on('end', () => outer.destroy());
  inner.on('connect', () => outer.emit('connect'));
  // The agent closes an idle connection on its socket's timeout.
  inner.on('timeout', () => outer.emit('timeout'));
  // What http.Agent and ClientRequest call on a socket.
  return Object.assign(outer, {
    setKeepAlive: (...args: Parameters<net.Socket['setKeepAlive']>) => (inner.setKeepAlive(...args), outer),
    setNoDelay: (...args: Parameters<net.Socket['setNoDelay']>) => (inner.setNoDelay(...args), outer),
    setTimeout: (...args: Parameters<net.Socket['setTimeout']>) => (inner.setTimeout(...args), outer),
    ref: () => (inner.ref(), outer),
    unref: () => (inner.unref(), outer),
  });
};

const hasBody = (req: http.IncomingMessage) => Boolean(req.headers['transfer-encoding']) || Number(req.headers['content-length'] ?? 0) > 0;

class WorkerAgent extends http.Agent {
  override createConnection(options: net.NetConnectOpts): Duplex {
    return forgivingConnection(options);
  }
}

/** The Cron Trigger's route, which Miniflare's asset router cannot run: the front calls the Worker's handler itself. */
const SCHEDULED_ROUTE = '/cdn-cgi/handler/scheduled';

/**
 * An HTTP front that does to each request what Cloudflare's edge does before the Worker sees it:
 * sets CF-Connecting-IP to the connecting address, replacing any value the client sent, and
 * passes everything else through, WebSocket upgrades included. Behind it the Worker can trust the
 * header, as deployed, so the sign-in limiter counts per address under `npm start` too.
 */
export const edgeFront = async ({ port, host, target, scheduled }: { port: number; host: string; target: URL; scheduled?: () => Promise<unknown> }) => {
  const agent = new WorkerAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS });
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, firstTry: boolean) => {
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: edgeHeaders(req), agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      // A reused connection that workerd closed just as the request went out fails before any
      // answer; a request with no body is sent again, once, on a new connection.
      if (firstTry && upstream.reusedSocket && !hasBody(req) && !res.headersSent) return forward(req, res, false);
      if (!res.headersSent) res.writeHead(502);
      res.end();
      // The client may still be sending: its body is read and discarded, so it gets the answer
      // on a connection that stays whole, as it would from the edge.
      req.unpipe(upstream);
      req.resume();
    });
    if (hasBody(req)) req.pipe(upstream);
    else upstream.end();
  };
  const runScheduled = (run: () => Promise<unknown>, res: http.ServerResponse) =>
    run().then(
      () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`scheduled failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  const server = http.createServer((req, res) => {
    if (scheduled && req.url?.split('?')[0] === SCHEDULED_ROUTE) return void runScheduled(scheduled, res);
    forward(req, res, true);
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const inner = net.connect(Number(target.port), target.hostname, () => {
      const lines = Object.entries(edgeHeaders(req)).map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`);
      inner.write(`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
      inner.write(head);
      socket.pipe(inner).pipe(socket);
    });
    inner.on('error', () => socket.destroy());
    socket.on('error', () => inner.destroy());
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return {
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/**
 * The built app as `npm start` serves it: workerd on a port of its own on 127.0.0.1, trusting
 * CF-Connecting-IP as deployed, behind the edge front on `port`. Miniflare's trigger routes are on,
 * so a developer can deliver a raw mail to the email() handler (`POST
 * /cdn-cgi/handler/email?from=&to=`) or run the minute trigger (`/cdn-cgi/handler/scheduled`, which
 * the front runs through Miniflare itself: the route does not reach the Worker behind the asset
 * router) with no network; a deployed Worker has neither route.
 */
export const serveBehindEdge = async (options: Omit<ServeOptions, 'trustConnectingIp' | 'triggerHandlers'>) => {
  const mf = await serveBuilt({ ...options, port: 0, trustConnectingIp: true, triggerHandlers: true });
  const worker = await mf.getWorker();
  const front = await edgeFront({ port: options.port, host: '127.0.0.1', target: await mf.ready, scheduled: () => worker.scheduled({ cron: '* * * * *' }) });
  return {
    dispose: async () => {
      await front.close();
      await mf.dispose();
    },
  };
};
