/**
 * Vitest globalSetup (runs in Node, not workerd): a real HTTP upstream for the passthrough tests.
 *
 * Routes, under any prefix ending in /v1/:
 *   echo[/...]        the request as seen: method, path + query, headers, body text
 *   hang              never answers
 *   status/<code>     that status with statusBody(code)
 *   count/<key>       counts the hit, drains the body; ?status=<code> answers that status,
 *                     ?hang=1 never answers; else 200 CountReply
 *   tickets/<key>/attachments   the same as count/<key>, on the path the Worker streams as an upload
 *   hop               hop-by-hop headers, Set-Cookie and X-Custom
 *   text              a text/html body
 *   big               BIG_BODY_BYTES streamed in chunks
 *   reset             headers and part of the body, then the socket is destroyed
 * Outside /v1: GET /hits/<key> → { hits } for count/<key>.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import {
  BIG_BODY_BYTES,
  HOP_RESPONSE_HEADERS,
  RESET_DECLARED_BYTES,
  RESET_SENT_TEXT,
  TEXT_BODY,
  statusBody,
  type CountReply,
  type EchoReply,
} from './upstream-contract';

const hits = new Map<string, number>();

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const sendJson = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

const sendStatus = (res: ServerResponse, code: number) => {
  const body = statusBody(code);
  if (!body) return void res.writeHead(code).end();
  res.writeHead(code, { 'content-type': body.contentType });
  res.end(body.text);
};

const streamBig = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < BIG_BODY_BYTES) {
      const part = chunk.subarray(0, Math.min(chunk.length, BIG_BODY_BYTES - sent));
      sent += part.length;
      if (!res.write(part)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
};

const resetMidBody = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(RESET_DECLARED_BYTES) });
  res.write(RESET_SENT_TEXT, () => setTimeout(() => res.socket?.destroy(), 50));
};

const handle = async (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://upstream');
  const hitsFor = /^\/hits\/([^/]+)$/.exec(url.pathname);
  if (hitsFor?.[1]) return sendJson(res, 200, { hits: hits.get(hitsFor[1]) ?? 0 });

  const at = url.pathname.indexOf('/v1/');
  if (at < 0) return sendJson(res, 404, { message: 'upstream: not under /v1/' });
  const [route = '', ...rest] = url.pathname.slice(at + '/v1/'.length).split('/');

  switch (route) {
    case 'echo': {
      const body = (await readBody(req)).toString('utf8');
      const reply: EchoReply = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      return sendJson(res, 200, reply);
    }
    case 'hang':
      return; // never answers; the socket closes when the caller gives up
    case 'status':
      return sendStatus(res, Number(rest[0]));
    case 'tickets':
    case 'count': {
      const key = rest[0] ?? '';
      const count = (hits.get(key) ?? 0) + 1;
      hits.set(key, count);
      const bytes = (await readBody(req)).length;
      if (url.searchParams.get('hang')) return;
      const status = url.searchParams.get('status');
      if (status) return sendStatus(res, Number(status));
      const reply: CountReply = { key, hits: count, bytes };
      return sendJson(res, 200, reply);
    }
    case 'hop':
      res.writeHead(200, { ...HOP_RESPONSE_HEADERS, 'content-type': 'application/json' });
      return void res.end('{"ok":true}');
    case 'text':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.end(TEXT_BODY);
    case 'big':
      return streamBig(res);
    case 'reset':
      return resetMidBody(res);
    default:
      return sendJson(res, 404, { message: `upstream: no route ${route}` });
  }
};

const listen = (server: Server) =>
  new Promise<string>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export default async function setup(project: TestProject) {
  const upstream = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('upstream test server:', error);
      res.destroy();
    });
  });
  const upstreamUrl = await listen(upstream);

  // A port that was just free: nothing listens there once this server is closed.
  const probe = createServer();
  const closedUrl = await listen(probe);
  await close(probe);

  project.provide('upstreamUrl', upstreamUrl);
  project.provide('closedUrl', closedUrl);
  return () => close(upstream);
}
