import AxeBuilder from '@axe-core/playwright';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import { WEBHOOK_EVENTS, type CreatedWebhook, type Webhook, type WebhookDelivery } from '../../src/shared/schemas/webhooks';
import { DESKTOP, PHONE, type Viewport, adminApi, browserPerFile, createUser, drawer, fieldError, heading, modal, settled, snap, tableRows, toast, uniqueTag } from './fixtures';

// The webhooks page (docs/api.md#webhooks) in Chromium. The provider's half of these calls is
// proven in workerd; here each test answers /api/v1/webhooks… from a small in-memory stand-in
// that keeps what the page sent, so every state the page must show (a hook turned off after 20
// failures, failed deliveries to retry) can be set up without waiting on a real receiver.

const chrome = browserPerFile();

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw7Q0n1GSo7zA=';

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

const hook = (fields: Partial<Webhook> & { id: number; url: string }): Webhook => ({
  events: ['ticket.created'],
  active: true,
  createdAt: '2026-11-20T09:00:00.000Z',
  consecutiveFailures: 0,
  ...fields,
});

const delivery = (fields: Partial<WebhookDelivery> & { id: string }): WebhookDelivery => ({
  event: 'ticket.created',
  at: '2026-11-25T10:00:00.000Z',
  attempt: 1,
  status: 'delivered',
  responseStatus: 200,
  responseMs: 84,
  error: null,
  ...fields,
});

/** Answers the page's webhook calls from `hooks` and `deliveries`, recording every write. */
const standIn = async (page: Page, start: { hooks?: Webhook[]; deliveries?: Record<number, WebhookDelivery[]> } = {}) => {
  // Copies, so one test's writes never show in the next.
  const hooks = structuredClone(start.hooks ?? []);
  const deliveries = new Map(Object.entries(structuredClone(start.deliveries ?? {})).map(([id, rows]) => [Number(id), rows]));
  const sent: Sent[] = [];
  let nextId = 100;
  const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: body === null ? '' : JSON.stringify(body) });

  await page.route(/\/api\/v1\/webhooks(?:[/?]|$)/, async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    const path = url.pathname.replace(/^\/api\/v1\//, '');
    const method = request.method();
    const body: unknown = request.postData() ? JSON.parse(request.postData() ?? 'null') : null;
    if (method !== 'GET') sent.push({ method, path, body });
    const [, idText, part, deliveryId, action] = path.split('/');
    const id = Number(idText);
    const found = hooks.find((row) => row.id === id);

    if (path === 'webhooks' && method === 'GET') return json(route, 200, { items: hooks });
    if (path === 'webhooks' && method === 'POST') {
      const created: CreatedWebhook = { ...hook({ id: nextId++, ...(body as Pick<Webhook, 'url' | 'events' | 'active'>) }), createdAt: new Date().toISOString(), secret: SECRET };
      const { secret: _secret, ...kept } = created;
      hooks.push(kept);
      return json(route, 201, created);
    }
    if (!found) return json(route, 404, { message: 'Webhook not found' });
    if (!part && method === 'PATCH') {
      Object.assign(found, body);
      return json(route, 200, found);
    }
    if (!part && method === 'DELETE') {
      hooks.splice(hooks.indexOf(found), 1);
      return json(route, 204, null);
    }
    const rows = deliveries.get(id) ?? [];
    if (part === 'deliveries' && method === 'GET') {
      const pageNo = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('pageSize') ?? 20);
      return json(route, 200, { items: rows.slice((pageNo - 1) * size, pageNo * size), total: rows.length, page: pageNo, pageSize: size });
    }
    if (part === 'deliveries' && action === 'retry' && method === 'POST') {
      const row = rows.find((item) => item.id === deliveryId);
      if (!row) return json(route, 404, { message: 'Delivery not found' });
      Object.assign(row, { status: 'queued', attempt: row.attempt + 1, error: null, responseStatus: null, responseMs: null });
      return json(route, 202, row);
    }
    if (part === 'test' && method === 'POST') {
      const row = delivery({ id: `msg_test${rows.length}`, event: 'webhook.test', status: 'queued', responseStatus: null, responseMs: null, at: new Date().toISOString() });
      deliveries.set(id, [row, ...rows]);
      return json(route, 202, row);
    }
    return json(route, 405, { message: 'Not stubbed' });
  });
  return { hooks, deliveries, sent };
};

/** A hook the provider turned off after 20 failures, with a delivery log of 3 rows. */
const turnedOffHook = hook({ id: 7, url: 'https://erp.example.com/hooks/desk', events: ['ticket.created', 'statement.paid'], active: false, consecutiveFailures: 20 });
const turnedOffLog: WebhookDelivery[] = [
  delivery({ id: 'msg_3', status: 'failed', attempt: 7, responseStatus: 503, responseMs: 1204, error: 'The receiver answered 503 Service Unavailable', at: '2026-11-25T12:00:00.000Z' }),
  delivery({ id: 'msg_2', status: 'failed', attempt: 7, responseStatus: null, responseMs: 10000, error: 'No answer within 10 s', event: 'statement.paid', at: '2026-11-25T11:00:00.000Z' }),
  delivery({ id: 'msg_1', at: '2026-11-24T09:00:00.000Z' }),
];

/** Presses Tab until the focused element is named `name` (the keyboard alone), at most `limit` times. */
const tabTo = async (page: Page, name: RegExp, limit = 40) => {
  for (let i = 0; i < limit; i += 1) {
    const focused = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active) return '';
      const labelled = active.getAttribute('aria-label') ?? (active.id ? document.querySelector(`label[for="${active.id}"]`)?.textContent : null);
      return (labelled ?? active.textContent ?? '').trim();
    });
    if (name.test(focused)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}`);
};

const axeViolations = async (page: Page) => {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  return violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
};

describe('the webhooks page', () => {
  it('adds a hook with the keyboard alone and shows its secret once, with a copy button', async () => {
    const page = await chrome.open(DESKTOP, { context: { permissions: ['clipboard-read', 'clipboard-write'] } });
    const stand = await standIn(page, { hooks: [hook({ id: 1, url: 'https://crm.example.com/in', events: ['ticket.created', 'ticket.updated'] })] });
    await page.goto('/webhooks/');
    await heading(page, 'Webhooks');
    await expect.poll(() => tableRows(page, 'Webhooks').count()).toBe(1);
    await snap(page, 'webhooks-list');

    await tabTo(page, /^Add webhook$/);
    await page.keyboard.press('Enter');
    const dialog = modal(page);
    await dialog.getByRole('heading', { name: 'Add webhook' }).waitFor();
    await tabTo(page, /^Address/);
    await page.keyboard.type('https://erp.example.com/hooks/desk');
    await tabTo(page, /^ticket\.created$/);
    await page.keyboard.press('Space');
    await tabTo(page, /^statement\.paid$/);
    await page.keyboard.press('Space');
    await tabTo(page, /^Add webhook$/);
    await page.keyboard.press('Enter');

    await dialog.getByText('You will not see it again', { exact: false }).waitFor();
    expect(await dialog.getByTestId('webhook-secret').textContent()).toBe(SECRET);
    expect(stand.sent).toEqual([{ method: 'POST', path: 'webhooks', body: { url: 'https://erp.example.com/hooks/desk', events: ['ticket.created', 'statement.paid'], active: true } }]);
    await snap(page, 'webhooks-add-secret');
    await tabTo(page, /^Copy secret$/);
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(SECRET);

    await tabTo(page, /^Done$/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => tableRows(page, 'Webhooks').count()).toBe(2);
    // The secret went with the dialog; opening the dialog again starts a new hook.
    expect(await page.getByText(SECRET).count()).toBe(0);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await modal(page).getByLabel(/^Address/).waitFor();
    expect(await modal(page).getByTestId('webhook-secret').count()).toBe(0);
  });

  it('refuses an address and events the schema refuses, and shows the provider’s own refusal under its field', async () => {
    const page = await chrome.open(DESKTOP);
    const stand = await standIn(page);
    await page.route(/\/api\/v1\/webhooks$/, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message: 'Invalid webhook', errors: { url: ['Must be https unless WEBHOOK_ALLOW_LOOPBACK is set'] } }) })
        : route.fallback(),
    );
    await page.goto('/webhooks/');
    await page.getByText('No webhooks yet').waitFor();
    await page.getByRole('button', { name: 'Add webhook' }).first().click();
    const dialog = modal(page);
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    expect(await fieldError(dialog.getByLabel(/^Address/))).toBe('The address is required');
    await dialog.getByText('Pick at least one event').waitFor();

    await dialog.getByLabel(/^Address/).fill('ftp://files.example.com/in');
    await dialog.getByLabel('ticket.updated').check();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    expect(await fieldError(dialog.getByLabel(/^Address/))).toBe('Must be an https:// address');
    expect(await dialog.getByText('Pick at least one event').count()).toBe(0);
    expect(stand.sent).toEqual([]);

    await dialog.getByLabel(/^Address/).fill('http://erp.example.com/in');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await toast(page, 'error', 'Webhook not added').waitFor();
    expect(await fieldError(dialog.getByLabel(/^Address/))).toBe('Must be https unless WEBHOOK_ALLOW_LOOPBACK is set');
    expect(await dialog.getByTestId('webhook-secret').count()).toBe(0);
  });

  it('says why a hook was turned off, lists its deliveries, retries a failed one and sends a test event', async () => {
    const page = await chrome.open(DESKTOP);
    const stand = await standIn(page, { hooks: [turnedOffHook], deliveries: { 7: turnedOffLog } });
    await page.goto('/webhooks/');
    const row = tableRows(page, 'Webhooks').first();
    await row.getByText('Turned off').waitFor();
    expect(await row.textContent()).toContain('20');
    await row.click();

    const panel = drawer(page);
    await panel.getByText('Turned off after repeated failures').waitFor();
    await panel.getByText('The last 20 deliveries all failed', { exact: false }).waitFor();
    const log = panel.getByRole('table', { name: 'Deliveries' });
    await expect.poll(() => log.locator('tbody tr').count()).toBe(3);
    const first = log.locator('tbody tr').first();
    for (const text of ['ticket.created', 'failed', '7', '503', '1204 ms', 'The receiver answered 503']) expect(await first.textContent()).toContain(text);
    // Only failed deliveries offer Retry.
    expect(await log.getByRole('button', { name: /^Retry/ }).count()).toBe(2);
    expect(await log.locator('tbody tr').nth(2).getByRole('button').count()).toBe(0);
    await settled(panel);
    await log.scrollIntoViewIfNeeded();
    await snap(page, 'webhooks-delivery-log');

    await first.getByRole('button', { name: /^Retry ticket\.created/ }).click();
    await toast(page, 'success', 'Delivery queued again').waitFor();
    await first.getByText('queued').waitFor();
    await panel.getByRole('button', { name: 'Send test event' }).click();
    await toast(page, 'success', 'Test event sent').waitFor();
    await log.getByText('webhook.test').waitFor();
    expect(stand.sent).toEqual([
      { method: 'POST', path: 'webhooks/7/deliveries/msg_3/retry', body: null },
      { method: 'POST', path: 'webhooks/7/test', body: null },
    ]);
    expect(new URL(page.url()).searchParams.get('id')).toBe('7');

    // While a delivery is queued the open log reads itself again, so its outcome shows unasked.
    Object.assign(stand.deliveries.get(7)?.find((row) => row.id === 'msg_3') ?? {}, { status: 'delivered', responseStatus: 204, responseMs: 95 });
    // The test event is the newest row now; the retried one comes second.
    const retried = log.locator('tbody tr').nth(1);
    await retried.getByText('delivered').waitFor();
    expect(await retried.textContent()).toContain('95 ms');
  });

  it('edits a hook, sending only what changed, and deletes it after asking', async () => {
    const page = await chrome.open(DESKTOP);
    const stand = await standIn(page, { hooks: [turnedOffHook], deliveries: { 7: [] } });
    await page.goto('/webhooks/?id=7');
    const panel = drawer(page);
    await panel.getByText('Nothing sent yet', { exact: false }).waitFor();
    await panel.getByLabel('Active').check();
    await panel.getByLabel('statement.paid').uncheck();
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'success', 'Webhook saved').waitFor();
    expect(stand.sent).toEqual([{ method: 'PATCH', path: 'webhooks/7', body: { events: ['ticket.created'], active: true } }]);
    await tableRows(page, 'Webhooks').first().getByText('Active').waitFor();
    expect(await panel.getByText('Turned off after repeated failures').count()).toBe(0);

    await panel.getByRole('button', { name: 'Delete' }).click();
    const ask = modal(page);
    await ask.getByText('Delete the hook to', { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'success', 'Webhook deleted').waitFor();
    await page.getByText('No webhooks yet').waitFor();
    expect(stand.sent.at(-1)).toEqual({ method: 'DELETE', path: 'webhooks/7', body: null });
    expect(new URL(page.url()).searchParams.get('id')).toBeNull();
  });

  it('shows a failed load with a way to ask again', async () => {
    const page = await chrome.open(DESKTOP);
    let fail = true;
    await page.route(/\/api\/v1\/webhooks$/, (route) =>
      fail
        ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Database unavailable' }) })
        : route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ items: [turnedOffHook] }) }),
    );
    await page.goto('/webhooks/');
    await page.getByText('Could not load this list').waitFor();
    await page.getByText('Database unavailable').waitFor();
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => tableRows(page, 'Webhooks').count()).toBe(1);
  });

  it('says webhooks are not available with an upstream API that has none (404), and offers no Add', async () => {
    const page = await chrome.open(DESKTOP);
    await page.route(/\/api\/v1\/webhooks$/, (route) => route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ message: 'Not Found' }) }));
    await page.goto('/webhooks/');
    await page.getByText('Webhooks are not available with this server.').waitFor();
    expect(await page.getByRole('button', { name: 'Add webhook' }).count()).toBe(0);
    expect(await page.getByText('Could not load this list').count()).toBe(0);
  });

  it('is where the bell’s notice of a hook turned off leads', async () => {
    const page = await chrome.open(DESKTOP);
    await standIn(page, { hooks: [turnedOffHook], deliveries: { 7: turnedOffLog } });
    const notice = {
      id: 1,
      at: '2026-11-25T12:00:01.000Z',
      kind: 'webhook_disabled',
      entity: 'webhook',
      entityId: 7,
      title: `Webhook turned off after 20 failed deliveries: ${turnedOffHook.url}`,
      actorId: null,
      actorName: null,
      readAt: null,
      commentId: null,
    };
    await page.route(/\/api\/v1\/notifications(?:\?|$)/, (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ items: [notice], total: 1, page: 1, pageSize: 20, unread: 1 }) })
        : route.fallback(),
    );
    await page.route(/\/api\/v1\/notifications\/read$/, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ unread: 0 }) }));
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    await page.getByTestId('bell').click();
    await page.getByTestId('notification').filter({ hasText: 'Webhook turned off' }).click();
    await page.waitForURL('**/webhooks/?id=7');
    await drawer(page).getByText('Turned off after repeated failures').waitFor();
  });

  it('is not offered to someone who is not an admin', async () => {
    const user = await createUser();
    const page = await chrome.open(DESKTOP, { as: user });
    let asked = 0;
    await page.route(/\/api\/v1\/webhooks/, (route) => {
      asked += 1;
      return route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: 'You need the admin role to manage webhooks' }) });
    });
    await page.goto('/dashboard/');
    await heading(page, 'Dashboard');
    expect(await page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await page.goto('/webhooks/');
    await heading(page, 'You do not have access to this page');
    expect(asked).toBe(0);
  });
});

describe('the webhooks page on the real provider', () => {
  // The e2e server runs without WEBHOOK_ALLOW_LOOPBACK, so no local receiver can be reached: the
  // hook points at a documentation address (192.0.2.0/24, never routed), which the address guard
  // lets through without a DNS lookup. Its deliveries stay queued or fail; what is proven here is
  // the page against the provider's own answers.
  it('adds a hook, shows the provider’s secret once, sends a test event into its log and deletes it', async () => {
    const page = await chrome.open(DESKTOP);
    const url = `https://192.0.2.1/hooks/${uniqueTag()}`;
    await page.goto('/webhooks/');
    await heading(page, 'Webhooks');
    await page.getByRole('button', { name: 'Add webhook' }).first().click();
    const dialog = modal(page);
    await dialog.getByLabel(/^Address/).fill(url);
    await dialog.getByLabel('ticket.created').check();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await dialog.getByTestId('webhook-secret').textContent();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    const row = tableRows(page, 'Webhooks').filter({ hasText: url });
    await row.click();
    const panel = drawer(page);
    await panel.getByText('Nothing sent yet', { exact: false }).waitFor();
    await panel.getByRole('button', { name: 'Send test event' }).click();
    await toast(page, 'success', 'Test event sent').waitFor();
    await panel.getByRole('table', { name: 'Deliveries' }).getByText('webhook.test').waitFor();
    // The secret is never read back: not in the page, nor in what the provider lists.
    expect(await page.getByText(secret ?? '').count()).toBe(0);
    expect(JSON.stringify(await adminApi('webhooks'))).not.toContain(secret);

    await panel.getByRole('button', { name: 'Delete' }).click();
    await modal(page).getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'success', 'Webhook deleted').waitFor();
    await expect.poll(() => tableRows(page, 'Webhooks').filter({ hasText: url }).count()).toBe(0);
  });
});

describe('the webhooks page is accessible', () => {
  const cases: { name: string; theme: 'light' | 'dark'; viewport: Viewport }[] = [
    { name: 'light', theme: 'light', viewport: DESKTOP },
    { name: 'dark', theme: 'dark', viewport: DESKTOP },
    { name: 'phone', theme: 'light', viewport: PHONE },
    { name: 'phone-dark', theme: 'dark', viewport: PHONE },
  ];

  it.each(cases)('has no axe violations in the list, the add dialog and a hook’s delivery log ($name)', async ({ name, theme, viewport }) => {
    const page = await chrome.open(viewport, { context: { reducedMotion: 'reduce' } });
    await page.addInitScript(({ key, value }) => localStorage.setItem(key, value), { key: THEME_STORAGE_KEY, value: theme });
    await standIn(page, { hooks: [turnedOffHook, hook({ id: 8, url: 'https://crm.example.com/in', events: [...WEBHOOK_EVENTS] })], deliveries: { 7: turnedOffLog } });
    await page.goto('/webhooks/');
    await expect.poll(() => tableRows(page, 'Webhooks').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    // Nothing on the page scrolls sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

    await page.getByRole('button', { name: 'Add webhook' }).click();
    const dialog = modal(page);
    await dialog.getByLabel(/^Address/).fill('https://erp.example.com/hooks/desk');
    await dialog.getByLabel('import.completed').check();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await dialog.getByTestId('webhook-secret').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await tableRows(page, 'Webhooks').first().click();
    const log = drawer(page).getByRole('table', { name: 'Deliveries' });
    await log.waitFor();
    await settled(drawer(page));
    expect(await axeViolations(page)).toEqual([]);
    await log.scrollIntoViewIfNeeded();
    await snap(page, `webhooks-drawer-${name}`);
  });
});
