import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CreatedWebhook, Webhook, WebhookDelivery } from '../../src/shared/schemas/webhooks';
import type { Page, Ticket } from '../../src/shared/types';
import { testDelivery } from '../../src/worker/provider/db/webhooks';
import { handleWebhookBatch, type ConsumerDeps, type WebhookMessage } from '../../src/worker/provider/webhooks/consumer';
import { signWebhook } from '../../src/worker/provider/webhooks/sign';
import { api, expectError, readJson, signedIn } from './support';

// Webhooks (docs/api.md#webhooks): admin CRUD, the outbox rows a write leaves in its own batch,
// and the queue consumer's signed sends, retries and turning a failing hook off.

let admin: { token: string; user: { id: number } };

beforeEach(async () => {
  // Each test starts with no hooks, so outbox counts are this test's own.
  await env.DB.batch([env.DB.prepare('DELETE FROM webhook_deliveries'), env.DB.prepare('DELETE FROM webhooks')]);
  admin = await signedIn('admin');
});

const PUBLIC_URL = 'https://203.0.113.10/hook';

const createHook = async (json: Record<string, unknown>) => {
  const { status, body, text } = await readJson<CreatedWebhook>(await api('webhooks', { method: 'POST', token: admin.token, json }));
  expect(status, text).toBe(201);
  return body;
};

interface DeliveryRow {
  id: string;
  webhook_id: number;
  event: string;
  payload: string;
  status: string;
  attempt: number;
  error: string | null;
}

const deliveriesOf = async (webhookId: number) =>
  (await env.DB.prepare('SELECT * FROM webhook_deliveries WHERE webhook_id = ?1 ORDER BY at, id').bind(webhookId).all<DeliveryRow>()).results;

describe('webhook CRUD', () => {
  it('creates a hook, answering its secret once, and lists, changes and removes it with audit entries', async () => {
    const created = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    expect(created).toMatchObject({ url: PUBLIC_URL, events: ['ticket.created'], active: true, consecutiveFailures: 0 });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(atob(created.secret.slice(6))).toHaveLength(32);

    const list = await readJson<{ items: Webhook[] }>(await api('webhooks', { token: admin.token }));
    expect(list.body.items).toHaveLength(1);
    expect(list.text).not.toContain(created.secret);

    const patched = await readJson<Webhook>(await api(`webhooks/${created.id}`, { method: 'PATCH', token: admin.token, json: { active: false, events: ['ticket.updated', 'user.deactivated'] } }));
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ active: false, events: ['ticket.updated', 'user.deactivated'], url: PUBLIC_URL });

    expect((await api(`webhooks/${created.id}`, { method: 'DELETE', token: admin.token })).status).toBe(204);
    await expectError(await api(`webhooks/${created.id}`, { method: 'DELETE', token: admin.token }), 404);

    const entries = (
      await env.DB.prepare("SELECT action, changes FROM audit_log WHERE entity = 'webhook' AND entity_id = ?1 ORDER BY id").bind(created.id).all<{ action: string; changes: string }>()
    ).results;
    expect(entries.map((entry) => entry.action)).toEqual(['create', 'update', 'delete']);
    expect(JSON.stringify(entries)).not.toContain(created.secret.slice(6));
    expect(JSON.parse(entries[1]!.changes)).toMatchObject({ active: [true, false] });
  });

  it.each([
    [{ url: 'http://203.0.113.10/hook', events: ['ticket.created'] }, /https/],
    [{ url: 'https://127.0.0.1/hook', events: ['ticket.created'] }, /public/],
    [{ url: 'https://10.0.0.1/hook', events: ['ticket.created'] }, /public/],
    [{ url: 'https://[::ffff:127.0.0.1]/', events: ['ticket.created'] }, /public/],
    [{ url: 'not an address', events: ['ticket.created'] }, /./],
    [{ url: PUBLIC_URL, events: [] }, /./],
    [{ url: PUBLIC_URL, events: ['ticket.eaten'] }, /./],
    [{ url: PUBLIC_URL, events: ['ticket.created', 'ticket.created'] }, /./],
    [{ events: ['ticket.created'] }, /./],
  ])('refuses %j with 400', async (json, message) => {
    const body = await expectError(await api('webhooks', { method: 'POST', token: admin.token, json }), 400);
    expect(body.message).toMatch(message);
  });

  it('refuses a private address on PATCH too, and bad ids', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    await expectError(await api(`webhooks/${hook.id}`, { method: 'PATCH', token: admin.token, json: { url: 'https://192.168.0.1/' } }), 400);
    await expectError(await api('webhooks/abc', { method: 'PATCH', token: admin.token, json: { active: false } }), 400);
    await expectError(await api('webhooks/999999/deliveries', { token: admin.token }), 404);
    await expectError(await api(`webhooks/${hook.id}/deliveries/nope/retry`, { method: 'POST', token: admin.token }), 400);
  });

  it.each(['staff', 'billing'] as const)('refuses %s with 403', async (role) => {
    const { token } = await signedIn(role);
    await expectError(await api('webhooks', { token }), 403);
    await expectError(await api('webhooks', { method: 'POST', token, json: { url: PUBLIC_URL, events: ['ticket.created'] } }), 403);
  });
});

describe('webhook outbox', () => {
  it('writes one delivery per active matching hook in the batch of the write, none for others', async () => {
    const matching = await createHook({ url: PUBLIC_URL, events: ['ticket.created', 'ticket.updated'] });
    const second = await createHook({ url: 'https://203.0.113.11/hook', events: ['ticket.created'] });
    const inactive = await createHook({ url: PUBLIC_URL, events: ['ticket.created'], active: false });
    const other = await createHook({ url: PUBLIC_URL, events: ['statement.paid'] });

    const ticket = await readJson<Ticket>(await api('tickets', { method: 'POST', token: admin.token, json: { title: 'Printer on fire' } }));
    expect(ticket.status, ticket.text).toBe(201);

    const [created] = await deliveriesOf(matching.id);
    expect(await deliveriesOf(matching.id)).toHaveLength(1);
    expect(await deliveriesOf(second.id)).toHaveLength(1);
    expect(await deliveriesOf(inactive.id)).toHaveLength(0);
    expect(await deliveriesOf(other.id)).toHaveLength(0);
    expect(created!.id).toMatch(/^msg_[0-9a-f]{32}$/);
    const payload = JSON.parse(created!.payload) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({ type: 'ticket.created', data: { id: ticket.body.id, title: 'Printer on fire', version: ticket.body.version, actorId: admin.user.id } });
    expect(payload.data).toEqual({ ...ticket.body, actorId: admin.user.id });

    const updated = await api(`tickets/${ticket.body.id}`, { method: 'PATCH', token: admin.token, json: { priority: 'urgent' } });
    expect(updated.status).toBe(200);
    const events = (await deliveriesOf(matching.id)).map((row) => row.event).sort();
    expect(events).toEqual(['ticket.created', 'ticket.updated']);
    expect(await deliveriesOf(second.id)).toHaveLength(1);

    // An update that changes nothing writes no event.
    expect((await api(`tickets/${ticket.body.id}`, { method: 'PATCH', token: admin.token, json: { priority: 'urgent' } })).status).toBe(200);
    expect(await deliveriesOf(matching.id)).toHaveLength(2);
  });

  it('writes ticket.comment_added with the comment as the API answers it', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.comment_added'] });
    const ticket = await readJson<Ticket>(await api('tickets', { method: 'POST', token: admin.token, json: { title: 'Noisy fan' } }));
    const comment = await readJson<Record<string, unknown>>(await api(`tickets/${ticket.body.id}/comments`, { method: 'POST', token: admin.token, json: { body: 'Cleaned it' } }));
    expect(comment.status, comment.text).toBe(201);
    const rows = await deliveriesOf(hook.id);
    expect(rows.map((row) => row.event)).toEqual(['ticket.comment_added']);
    const { data } = JSON.parse(rows[0]!.payload) as { data: Record<string, unknown> };
    expect(data).toEqual({ ...comment.body, actorId: admin.user.id });
    // A refused comment (no such ticket) leaves no delivery.
    await expectError(await api('tickets/999999/comments', { method: 'POST', token: admin.token, json: { body: 'x' } }), 404);
    expect(await deliveriesOf(hook.id)).toHaveLength(1);
  });

  it('writes user.deactivated once, when a person is deactivated, and not for other edits', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['user.deactivated'] });
    const { user } = await signedIn('staff');
    expect((await api('users', { method: 'PATCH', token: admin.token, json: { id: user.id, firstName: 'Renamed' } })).status).toBe(200);
    expect(await deliveriesOf(hook.id)).toHaveLength(0);
    const answered = await readJson<Record<string, unknown>>(await api('users', { method: 'PATCH', token: admin.token, json: { id: user.id, isActive: false } }));
    expect(answered.status, answered.text).toBe(200);
    // Deactivating someone already inactive changes nothing and sends nothing.
    expect((await api('users', { method: 'PATCH', token: admin.token, json: { id: user.id, isActive: false } })).status).toBe(200);
    const rows = await deliveriesOf(hook.id);
    expect(rows.map((row) => row.event)).toEqual(['user.deactivated']);
    expect((JSON.parse(rows[0]!.payload) as { data: unknown }).data).toEqual({ ...answered.body, actorId: admin.user.id });
  });

  it('writes nothing when no hook is active', async () => {
    expect((await api('tickets', { method: 'POST', token: admin.token, json: { title: 'Quiet' } })).status).toBe(201);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM webhook_deliveries').first<{ n: number }>())?.n).toBe(0);
  });
});

// The Standard Webhooks check, written here from the specification rather than taken from the app.
const expectedSignature = async (secret: string, id: string, timestamp: string, body: string) => {
  const keyBytes = Uint8Array.from(atob(secret.split('_')[1]!), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  let binary = '';
  for (const byte of mac) binary += String.fromCharCode(byte);
  return `v1,${btoa(binary)}`;
};

interface Sent {
  url: string;
  init: RequestInit;
}

const receiver = (answer: () => Response | Promise<Response>) => {
  const sent: Sent[] = [];
  const deps: ConsumerDeps = {
    fetch: async (input, init) => {
      sent.push({ url: String(input), init: init ?? {} });
      return answer();
    },
    resolve: () => Promise.resolve(['203.0.113.10']),
    now: () => Date.now(),
  };
  return { sent, deps };
};

const runBatch = async (deliveryIds: string[], deps: ConsumerDeps, bindings: Parameters<typeof handleWebhookBatch>[1] = env) => {
  const batch = createMessageBatch<WebhookMessage>(
    'staff-app-webhooks',
    deliveryIds.map((deliveryId, index) => ({ id: `m${index}`, timestamp: new Date(), attempts: 1, body: { deliveryId } })),
  );
  // The pool's result names retried messages but not their delays: the calls are watched here.
  const delays: (number | undefined)[] = [];
  for (const message of batch.messages) {
    const retry = message.retry.bind(message);
    message.retry = (options) => {
      delays.push(options?.delaySeconds);
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await handleWebhookBatch(batch, bindings, deps);
  return { ...(await getQueueResult(batch, ctx)), delays };
};

describe('webhook consumer', () => {
  it('sends a signed Standard Webhooks POST once, and never again when the queue hands it over twice', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    const delivery = await testDelivery(env.DB, hook.id, admin.user.id);
    const { sent, deps } = receiver(() => new Response('ok'));

    const result = await runBatch([delivery.id], deps);
    expect(result.explicitAcks).toEqual(['m0']);
    expect(sent).toHaveLength(1);
    const { init, url } = sent[0]!;
    expect(url).toBe(PUBLIC_URL);
    expect(init.method).toBe('POST');
    expect(init.redirect).toBe('manual');
    const headers = new Headers(init.headers);
    const body = String(init.body);
    expect(headers.get('webhook-id')).toBe(delivery.id);
    expect(headers.get('webhook-signature')).toBe(await expectedSignature(hook.secret, delivery.id, headers.get('webhook-timestamp')!, body));
    expect(JSON.parse(body)).toMatchObject({ type: 'webhook.test', timestamp: expect.any(String), data: { webhookId: hook.id, actorId: admin.user.id } });

    const again = await runBatch([delivery.id], deps);
    expect(again.explicitAcks).toEqual(['m0']);
    expect(sent).toHaveLength(1);
    expect(await deliveriesOf(hook.id)).toMatchObject([{ status: 'delivered', attempt: 1 }]);

    const log = await readJson<Page<WebhookDelivery>>(await api(`webhooks/${hook.id}/deliveries`, { token: admin.token }));
    expect(log.body.items).toMatchObject([{ id: delivery.id, event: 'webhook.test', status: 'delivered', attempt: 1, responseStatus: 200, error: null }]);
  });

  it('retries a non-2xx, a redirect and a timeout on the schedule, then fails the delivery for good', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    const delivery = await testDelivery(env.DB, hook.id, admin.user.id);
    const answers = [
      () => new Response('no', { status: 500 }),
      () => new Response(null, { status: 302, headers: { location: 'https://127.0.0.1/' } }),
      () => Promise.reject(new DOMException('timed out', 'TimeoutError')),
      () => new Response('no', { status: 404 }),
      () => new Response('no', { status: 503 }),
      () => new Response('no', { status: 500 }),
      () => new Response('no', { status: 500 }),
    ];
    let call = 0;
    const { sent, deps } = receiver(() => answers[call++]!());
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      const result = await runBatch([delivery.id], deps);
      if (attempt < 7) delays.push(...result.delays.map(Number));
      else expect(result.explicitAcks).toEqual(['m0']);
    }
    expect(delays).toEqual([60, 300, 1_800, 7_200, 18_000, 36_000]);
    expect(sent).toHaveLength(7);
    const [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: 'failed', attempt: 7 });

    const errors = await readJson<Page<WebhookDelivery>>(await api(`webhooks/${hook.id}/deliveries`, { token: admin.token }));
    expect(errors.body.items[0]).toMatchObject({ status: 'failed', responseStatus: 500 });

    // Retry from the admin page puts it back on the queue from its first attempt.
    const retried = await readJson<WebhookDelivery>(await api(`webhooks/${hook.id}/deliveries/${delivery.id}/retry`, { method: 'POST', token: admin.token }));
    expect(retried.status, retried.text).toBe(202);
    expect(retried.body).toMatchObject({ id: delivery.id, status: 'queued', attempt: 0 });
  });

  it('records the timeout and the redirect as such', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    const timedOut = await testDelivery(env.DB, hook.id, admin.user.id);
    await runBatch([timedOut.id], receiver(() => Promise.reject(new DOMException('timed out', 'TimeoutError'))).deps);
    const redirected = await testDelivery(env.DB, hook.id, admin.user.id);
    await runBatch([redirected.id], receiver(() => new Response(null, { status: 301, headers: { location: 'https://203.0.113.12/' } })).deps);
    const rows = await deliveriesOf(hook.id);
    expect(rows.find((row) => row.id === timedOut.id)).toMatchObject({ status: 'queued', error: 'No answer within 10 s' });
    expect(rows.find((row) => row.id === redirected.id)).toMatchObject({ status: 'queued', error: 'Answered 301' });
  });

  it('refuses to send where the host name now points to a private address', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    await env.DB.prepare("UPDATE webhooks SET url = 'https://rebound.example/hook' WHERE id = ?1").bind(hook.id).run();
    const delivery = await testDelivery(env.DB, hook.id, admin.user.id);
    const { sent, deps } = receiver(() => new Response('ok'));
    const result = await runBatch([delivery.id], { ...deps, resolve: () => Promise.resolve(['10.0.0.8']) });
    expect(sent).toHaveLength(0);
    expect(result.retryMessages).toHaveLength(1);
    expect((await deliveriesOf(hook.id))[0]?.error).toMatch(/10\.0\.0\.8/);
  });

  it('turns a hook off after 20 deliveries in a row failed for good, and tells every active admin', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    const other = await signedIn('admin');
    await env.DB.prepare('UPDATE webhooks SET consecutive_failures = 18 WHERE id = ?1').bind(hook.id).run();
    const { deps } = receiver(() => new Response('no', { status: 500 }));
    // A first attempt that fails is retried, and is not yet a failure of the hook.
    await runBatch([(await testDelivery(env.DB, hook.id, admin.user.id)).id], deps);
    expect((await readJson<Webhook>(await api(`webhooks/${hook.id}`, { token: admin.token }))).body).toMatchObject({ active: true, consecutiveFailures: 18 });
    const lastAttempt = async () => {
      const delivery = await testDelivery(env.DB, hook.id, admin.user.id);
      await env.DB.prepare('UPDATE webhook_deliveries SET attempt = 6 WHERE id = ?1').bind(delivery.id).run();
      return delivery.id;
    };
    await runBatch([await lastAttempt()], deps);
    expect((await readJson<Webhook>(await api(`webhooks/${hook.id}`, { token: admin.token }))).body).toMatchObject({ active: true, consecutiveFailures: 19 });
    await runBatch([await lastAttempt()], deps);
    expect((await readJson<Webhook>(await api(`webhooks/${hook.id}`, { token: admin.token }))).body).toMatchObject({ active: false, consecutiveFailures: 20 });
    const notices = (
      await env.DB.prepare("SELECT user_id FROM notifications WHERE kind = 'webhook_disabled' AND entity_id = ?1").bind(hook.id).all<{ user_id: number }>()
    ).results.map((row) => row.user_id);
    expect(notices).toEqual(expect.arrayContaining([admin.user.id, other.user.id]));
    expect(new Set(notices).size).toBe(notices.length);

    // While it is off nothing is sent and the delivery waits; turning it on queues it again.
    const waiting = await testDelivery(env.DB, hook.id, admin.user.id);
    const { sent, deps: ok } = receiver(() => new Response('ok'));
    await env.DB.prepare("UPDATE webhook_deliveries SET event = 'ticket.created' WHERE id = ?1").bind(waiting.id).run();
    expect((await runBatch([waiting.id], ok)).explicitAcks).toEqual(['m0']);
    expect(sent).toHaveLength(0);
    const sends: string[] = [];
    const queue = env.WEBHOOKS as Queue<WebhookMessage>;
    const sendBatch = queue.sendBatch.bind(queue);
    queue.sendBatch = async (messages, options) => {
      sends.push(...[...messages].map((message) => message.body.deliveryId));
      return sendBatch(messages, options);
    };
    try {
      expect((await api(`webhooks/${hook.id}`, { method: 'PATCH', token: admin.token, json: { active: true } })).status).toBe(200);
    } finally {
      queue.sendBatch = sendBatch;
    }
    expect(sends).toContain(waiting.id);
    expect((await readJson<Webhook>(await api(`webhooks/${hook.id}`, { token: admin.token }))).body).toMatchObject({ active: true, consecutiveFailures: 0 });
  });

  it('a success starts the failure count afresh', async () => {
    const hook = await createHook({ url: PUBLIC_URL, events: ['ticket.created'] });
    await env.DB.prepare('UPDATE webhooks SET consecutive_failures = 7 WHERE id = ?1').bind(hook.id).run();
    await runBatch([(await testDelivery(env.DB, hook.id, admin.user.id)).id], receiver(() => new Response(null, { status: 204 })).deps);
    expect((await readJson<Webhook>(await api(`webhooks/${hook.id}`, { token: admin.token }))).body.consecutiveFailures).toBe(0);
  });

  it('retries a message without delay when its own storage fails, so the queue can dead-letter it', async () => {
    const broken = { DB: { prepare: () => { throw new Error('D1 is down'); } } as unknown as D1Database };
    const result = await runBatch(['msg_00000000000000000000000000000000'], receiver(() => new Response('ok')).deps, broken);
    expect(result.retryMessages).toEqual([{ msgId: 'm0' }]);
    expect(result.explicitAcks).toEqual([]);
  });
});

describe('webhook signing', () => {
  it('signs the worked example in docs/api.md as the test computes it independently', async () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"type":"ticket.created","timestamp":"2023-01-19T00:13:51.000Z","data":{"id":42,"title":"Printer on fire","actorId":7}}';
    const documented = 'v1,PUDTzQOKr/6E8pZt3TZHsbccskbXY3OVjjPVaw/gwh4=';
    expect(await expectedSignature(secret, 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', '1674087231', body)).toBe(documented);
    expect(await signWebhook(secret, 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W', 1674087231, body)).toBe(documented);
  });
});
