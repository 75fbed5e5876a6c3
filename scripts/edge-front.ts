import http from 'node:http';
import net from 'node:net';
import { serveBuilt, type ServeOptions } from './serve';

/**
 * The connecting address as Cloudflare's edge reports it: the socket's own, IPv4 without the
 * IPv6-mapped prefix Node gives it on a dual-stack socket.
 */
export const connectingAddress = (socket: net.Socket) => (socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/** The request's headers with CF-Connecting-IP set from the socket, whatever the client sent. */
const edgeHeaders = (req: http.IncomingMessage) => ({ ...req.headers, 'cf-connecting-ip': connectingAddress(req.socket) });

/**
 * An HTTP front that does to each request what Cloudflare's edge does before the Worker sees it:
 * sets CF-Connecting-IP to the connecting address, replacing any value the client sent, and
 * passes everything else through, WebSocket upgrades included. Behind it the Worker can trust the
 * header, as deployed, so the sign-in limiter counts per address under `npm start` too.
 */
export const edgeFront = async ({ port, host, target }: { port: number; host: string; target: URL }) => {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: edgeHeaders(req), agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
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
 * CF-Connecting-IP as deployed, behind the edge front on `port`.
 */
export const serveBehindEdge = async (options: Omit<ServeOptions, 'trustConnectingIp'>) => {
  const mf = await serveBuilt({ ...options, port: 0, trustConnectingIp: true });
  const front = await edgeFront({ port: options.port, host: '127.0.0.1', target: await mf.ready });
  return {
    dispose: async () => {
      await front.close();
      await mf.dispose();
    },
  };
};
