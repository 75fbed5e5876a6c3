import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { vi } from 'vitest';
import worker, { createApp } from '../../src/worker/index';
import type { Env } from '../../src/worker/env';
import { asInvocation } from './d1-limits';
import { ORIGIN } from './support';

// The mail tests' tools: the email() handler called as Email Routing calls it, and a MAIL binding
// that records what the Worker sends, with requests made through the Worker using it.

const app = createApp({ log: () => {} });

export const INBOX = env.MAIL_INBOX ?? 'support@localhost.test';
export const CRLF = (text: string) => text.replace(/\r?\n/g, '\r\n');

export interface Received {
  rejected: string | null;
}

export const deliver = async (from: string, to: string, raw: string | Uint8Array, headers: Record<string, string> = {}, extra: Partial<Env> = {}): Promise<Received> => {
  const bytes = typeof raw === 'string' ? new TextEncoder().encode(CRLF(raw)) : raw;
  const outcome: Received = { rejected: null };
  const message = {
    from,
    to,
    headers: new Headers(headers),
    raw: new Response(bytes).body as ReadableStream<Uint8Array>,
    rawSize: bytes.byteLength,
    setReject: vi.fn((reason: string) => {
      outcome.rejected = reason;
    }),
    forward: vi.fn(),
    reply: vi.fn(),
  } as unknown as ForwardableEmailMessage;
  const ctx = createExecutionContext();
  await (worker.email as EmailExportedHandler<Env>)(message, { ...env, ...extra } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return outcome;
};

export const plain = (from: string, subject: string, body: string, more = '') => `From: ${from}
To: ${INBOX}
Subject: ${subject}
MIME-Version: 1.0
${more}Content-Type: text/plain; charset=utf-8

${body}
`;

/** What the MAIL binding was handed: the envelope and the raw message, read back as text. */
export interface Sent {
  from: string;
  to: string;
  raw: string;
}

/** A MAIL binding that records each message, or fails every send when `fail` says so. */
export const recorder = (fail?: string) => {
  const sent: Sent[] = [];
  const binding = {
    send: async (message: { from: string; to: string } & Record<string, unknown>) => {
      if (fail) throw new Error(fail);
      // workerd's local EmailMessage keeps the raw message under this key (a stream or text).
      const raw = (message['EmailMessage::raw'] ?? message.raw) as ReadableStream | string;
      sent.push({ from: message.from, to: message.to, raw: await new Response(raw).text() });
      return { messageId: 'test' };
    },
  } as unknown as SendEmail;
  return { sent, env: { ...env, MAIL: binding } as Env };
};

/** A request through the Worker with its own MAIL binding, waiting for what runs after the answer. */
export const call = async (mailEnv: Env, path: string, init: { token: string; method?: string; json?: unknown; headers?: Record<string, string> }) => {
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  headers.set('authorization', `Bearer ${init.token}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const res = await asInvocation(() => app.fetch(new Request(`${ORIGIN}/api/v1/${path}`, { method: init.method ?? 'GET', headers, body }), mailEnv, ctx));
  await waitOnExecutionContext(ctx);
  return res;
};

/** The headers of a raw message, unfolded, by lower-case name (each name once). */
export const headersOf = (raw: string) => {
  const head = raw.split('\r\n\r\n')[0] ?? '';
  const lines = head.replace(/\r\n[ \t]/g, ' ').split('\r\n');
  return { lines, get: (name: string) => lines.find((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`))?.slice(name.length + 1).trim() };
};

