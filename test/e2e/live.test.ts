import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { Ticket } from '../../src/shared/types';
import { mentionToken } from '../../src/shared/mentions';
import { DESKTOP, PHONE, POLL, adminApi, adminSession, apiAs, browserPerFile, drawer, liveHello, makeAccount, screenshot, sessionFor, tableLoaded, tableRows, uniqueTag } from './fixtures';

// Two people at once (docs/architecture.md#live-updates): what one saves shows in the other's
// open list and drawer without a reload, they see each other on a record, and the bell counts.
const chrome = browserPerFile();
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const colleague = async () => {
  const account = await makeAccount('staff', 'Casey');
  const { token } = await sessionFor(account);
  return { ...account, call: apiAs(token), name: `${account.firstName} ${account.surname}` };
};

/** Goes to `path` and waits for the page's live socket to say hello. */
const gotoLive = async (page: Page, path: string) => {
  const hello = liveHello(page);
  await page.goto(path);
  await hello;
};
const noReload = async (page: Page) => {
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  return async () => expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
};
const axeClean = async (page: Page, selector: string) => {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).include(selector).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
};

describe('live updates between two people', () => {
  it('the list and a clean drawer re-read in place; a dirty drawer shows the conflict at once', async () => {
    const casey = await colleague();
    const tag = uniqueTag();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Live ${tag}` } });
    const page = await chrome.open(DESKTOP);
    await gotoLive(page, '/tickets/');
    await tableLoaded(page, 'Tickets');
    const stayed = await noReload(page);

    await casey.call(`tickets/${ticket.id}`, { method: 'PATCH', body: { title: `Renamed ${tag}` } });
    await expect.poll(() => tableRows(page, 'Tickets').filter({ hasText: `Renamed ${tag}` }).count(), POLL).toBe(1);

    // By its title: the row's status, priority and assignee are buttons of their own (instant edits).
    await tableRows(page, 'Tickets').filter({ hasText: `Renamed ${tag}` }).getByText(`Renamed ${tag}`).click();
    await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
    await expect.poll(() => drawer(page).getByLabel('Title').inputValue(), POLL).toBe(`Renamed ${tag}`);
    await casey.call(`tickets/${ticket.id}`, { method: 'PATCH', body: { title: `Again ${tag}` } });
    await expect.poll(() => drawer(page).getByLabel('Title').inputValue(), POLL).toBe(`Again ${tag}`);
    await expect.poll(() => drawer(page).getByTestId('updated-by').textContent(), POLL).toBe(`Updated by ${casey.name}`);

    await drawer(page).getByLabel('Description').fill('my unsaved words');
    await casey.call(`tickets/${ticket.id}`, { method: 'PATCH', body: { priority: 'urgent' } });
    await drawer(page).getByTestId('conflict-notice').waitFor();
    expect(await drawer(page).getByLabel('Description').inputValue()).toBe('my unsaved words');
    await stayed();
  });

  it('presence shows who else is on the record and who is editing, and clears when they leave', async () => {
    const casey = await colleague();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Presence ${uniqueTag()}` } });
    const mine = await chrome.open(DESKTOP);
    const theirs = await chrome.open(DESKTOP, { as: casey });
    await mine.goto(`/tickets/?id=${ticket.id}`);
    await theirs.goto(`/tickets/?id=${ticket.id}`);
    const presence = drawer(mine).getByTestId('presence');
    await expect.poll(() => presence.textContent(), POLL).toContain(casey.name);
    await drawer(theirs).getByRole('button', { name: /^Edit ticket #/ }).click();
    await drawer(theirs).getByLabel('Description').fill('typing');
    await expect.poll(() => presence.textContent(), POLL).toContain(`${casey.name} (editing)`);
    await drawer(theirs).getByLabel('Description').fill('');
    await theirs.goto('/dashboard');
    await expect.poll(() => presence.count(), POLL).toBe(0);
  });

  it('the bell count rises with an assignment and clears from its list', async () => {
    const casey = await colleague();
    const page = await chrome.open(DESKTOP);
    await adminApi('notifications/read', { method: 'POST', body: {}, expect: 200 });
    await gotoLive(page, '/dashboard');
    const bell = page.getByTestId('bell');
    await expect.poll(() => bell.getAttribute('aria-label'), POLL).toBe('Notifications, 0 unread notifications');
    const ticket = await casey.call<Ticket>('tickets', { method: 'POST', body: { title: `Bell ${uniqueTag()}`, assigneeId: (await adminSession()).userId } });
    await expect.poll(() => bell.getAttribute('aria-label'), POLL).toBe('Notifications, 1 unread notification');
    expect(await page.getByTestId('bell-announcement').getAttribute('aria-live')).toBe('polite');
    await bell.click();
    await page.getByTestId('notification').filter({ hasText: `#${ticket.body.id}` }).click();
    await expect.poll(() => page.url(), POLL).toContain(`/tickets/?id=${ticket.body.id}`);
    await expect.poll(() => bell.getAttribute('aria-label'), POLL).toBe('Notifications, 0 unread notifications');
  });
});

describe('mentions', () => {
  it('are offered after @ in the comment box, chosen by keyboard alone, and shown as names', async () => {
    const casey = await colleague();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Mention ${uniqueTag()}` } });
    const page = await chrome.open(DESKTOP);
    await page.goto(`/tickets/?id=${ticket.id}`);
    const box = drawer(page).getByRole('textbox', { name: 'New comment' });
    await box.focus();
    await page.keyboard.type(`Over to @${casey.firstName.slice(0, 7)}`);
    const option = page.getByRole('option', { name: casey.name });
    await option.waitFor();
    expect(await box.getAttribute('aria-controls')).toBe(await page.getByRole('listbox', { name: 'People to mention' }).getAttribute('id'));
    await page.keyboard.press('Enter');
    await expect.poll(() => box.inputValue(), POLL).toBe(`Over to @[${casey.name}](user:${casey.id}) `);
    // Under the box, the text as everyone will read it.
    await expect.poll(() => drawer(page).getByTestId('mention-preview').textContent(), POLL).toBe(`Reads as: Over to @${casey.name} `);
    // Ctrl+Enter sends from the box itself.
    await page.keyboard.press('Control+Enter');
    // Saved: the box is empty again, its preview gone, and the comment shows the name.
    await expect.poll(() => box.inputValue(), POLL).toBe('');
    expect(await drawer(page).getByTestId('mention-preview').count()).toBe(0);
    const shown = drawer(page).getByText(`@${casey.name}`, { exact: true });
    await shown.waitFor();
    const theirs = await casey.call<{ items: { kind: string; entityId: number }[] }>('notifications');
    expect(theirs.body.items).toEqual([expect.objectContaining({ kind: 'mentioned', entityId: ticket.id })]);
  });
});

/** Another admin, who may change every kind of record. */
const adminColleague = async () => {
  const account = await makeAccount('admin', 'Avery');
  const { token } = await sessionFor(account);
  return { ...account, call: apiAs(token), name: `${account.firstName} ${account.surname}` };
};

interface LiveDrawerCase {
  kind: string;
  /** Makes the record; answers its page address and the change the colleague makes to `field`. */
  make: (tag: string) => Promise<{ path: string; patch: (value: string) => [string, Record<string, unknown>] }>;
  field: string;
  /** A second field the person edits, leaving the form dirty. */
  other: string;
}

const LIVE_DRAWERS: LiveDrawerCase[] = [
  {
    kind: 'company',
    field: 'Name',
    other: 'Phone',
    make: async (tag) => {
      const { id } = await adminApi<{ id: number }>('companies', { method: 'POST', body: { name: `Live Co ${tag}` } });
      return { path: `/lookups/companies/?id=${id}`, patch: (name) => [`companies/${id}`, { name }] };
    },
  },
  {
    kind: 'ticket category',
    field: 'Name',
    other: 'Description',
    make: async (tag) => {
      const { id } = await adminApi<{ id: number }>('ticket-categories', { method: 'POST', body: { name: `Live category ${tag}` } });
      return { path: `/lookups/ticket-categories/?id=${id}`, patch: (name) => [`ticket-categories/${id}`, { name }] };
    },
  },
  {
    kind: 'user',
    field: 'First Name',
    other: 'Surname',
    make: async () => {
      const { id } = await makeAccount('staff', 'Lee');
      return { path: `/users/?id=${id}&component=edit`, patch: (firstName) => ['users', { id, firstName }] };
    },
  },
  {
    kind: 'invoice line',
    field: 'Description',
    other: 'Reference',
    make: async (tag) => {
      const line = await adminApi<{ id: number }>('invoices/autofi/lines', { method: 'POST', body: { period: '2026-01', description: `Live line ${tag}`, quantity: 1, unitPriceCents: 100 } });
      return { path: `/invoices/autofi/?lineId=${line.id}`, patch: (description) => [`invoices/lines/${line.id}`, { description }] };
    },
  },
];

describe.each(LIVE_DRAWERS)('a $kind drawer on the live channel', ({ make, field, other }) => {
  it('re-reads when clean and says who saved; shows the conflict at once when dirty', async () => {
    const avery = await adminColleague();
    const tag = uniqueTag();
    const { path, patch } = await make(tag);
    const page = await chrome.open(DESKTOP);
    await gotoLive(page, path);
    const box = drawer(page).getByLabel(field, { exact: true });
    await box.waitFor();
    const stayed = await noReload(page);

    const [url, body] = patch(`Changed ${tag}`);
    await avery.call(url, { method: 'PATCH', body });
    await expect.poll(() => box.inputValue(), POLL).toBe(`Changed ${tag}`);
    await expect.poll(() => drawer(page).getByTestId('updated-by').textContent(), POLL).toBe(`Updated by ${avery.name}`);

    await drawer(page).getByLabel(other, { exact: true }).fill(`mine ${tag}`);
    const [again, changes] = patch(`Again ${tag}`);
    await avery.call(again, { method: 'PATCH', body: changes });
    await drawer(page).getByTestId('conflict-notice').waitFor();
    expect(await drawer(page).getByLabel(other, { exact: true }).inputValue()).toBe(`mine ${tag}`);
    await stayed();
  });
});

describe('a description with mentions', () => {
  it.each([
    ['light', 'desktop', DESKTOP],
    ['dark', 'phone', PHONE],
  ] as const)('reads as names under the box (%s, %s)', async (theme, name, viewport) => {
    const casey = await colleague();
    const description = `Printer jam, ${mentionToken(casey.name, casey.id)} knows the model`;
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Described ${uniqueTag()}`, description } });
    const page = await chrome.open(viewport);
    await page.addInitScript(({ key, scheme }) => localStorage.setItem(key, scheme), { key: THEME_STORAGE_KEY, scheme: theme });
    await page.goto(`/tickets/?id=${ticket.id}`);
    await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
    const box = drawer(page).getByRole('textbox', { name: 'Description' });
    await expect.poll(() => box.inputValue(), POLL).toBe(description);
    const preview = drawer(page).getByTestId('mention-preview');
    await expect.poll(() => preview.textContent(), POLL).toBe(`Reads as: Printer jam, @${casey.name} knows the model`);
    await axeClean(page, '[data-testid="mention-preview"]');
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, `mention-preview-${theme}-${name}`);
    // Without a token there is nothing to preview.
    await box.fill('No one mentioned');
    await expect.poll(() => preview.count(), POLL).toBe(0);
  });
});

describe.each(['light', 'dark'] as const)('axe on the bell list and presence, %s theme', (theme) => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('%s', async (name, viewport) => {
    const casey = await colleague();
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Axe ${uniqueTag()}` } });
    await casey.call('tickets', { method: 'POST', body: { title: `For the bell ${uniqueTag()}`, assigneeId: (await adminSession()).userId } });
    const page = await chrome.open(viewport, { context: { reducedMotion: 'reduce' } });
    await page.addInitScript(({ key, scheme }) => localStorage.setItem(key, scheme), { key: THEME_STORAGE_KEY, scheme: theme });
    const theirs = await chrome.open(viewport, { as: casey });
    await gotoLive(theirs, `/tickets/?id=${ticket.id}`);
    await page.goto(`/tickets/?id=${ticket.id}`);
    await drawer(page).getByTestId('presence').waitFor();
    await axeClean(page, '[data-testid="presence"]');
    await screenshot(page, `live-presence-${theme}-${name}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('bell').click();
    await page.getByTestId('notification').first().waitFor();
    await axeClean(page, '.mantine-Popover-dropdown');
    await screenshot(page, `live-bell-${theme}-${name}`);
  });
});
