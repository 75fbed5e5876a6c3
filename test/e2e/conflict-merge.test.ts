import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { AuditEntry, Company, Page as ListPage, Ticket } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, adminApi, apiResponse, browserPerFile, choose, drawer, makeAccount, screenshot, settled, toast, uniqueTag, type Viewport } from './fixtures';

// "Overwrite with mine" after a conflict sends only the fields this person changed, so a
// colleague's changes to other fields survive it; a field both changed is the person's pick.
const chrome = browserPerFile();

const openTicket = async (page: Page, ticket: Ticket) => {
  await page.goto(`/tickets/?id=${ticket.id}`);
  await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
  await expect.poll(() => drawer(page).getByLabel('Title').inputValue(), POLL).toBe(ticket.title);
};

/** Clicks a button that PATCHes the record and gives the status of its answer and the body sent. */
const patchBy = async (page: Page, pattern: RegExp, button: ReturnType<Page['getByRole']>) => {
  const patched = apiResponse(page, pattern, 'PATCH');
  await button.click();
  const response = await patched;
  return { status: response.status(), sent: response.request().postDataJSON() as Record<string, unknown> };
};

const saveTicket = (page: Page) => patchBy(page, /^tickets\/\d+$/, drawer(page).getByRole('button', { name: 'Save ticket' }));
const overwrite = (page: Page, pattern: RegExp) => patchBy(page, pattern, drawer(page).getByTestId('conflict-notice').getByRole('button', { name: 'Overwrite with mine' }));

const newTicket = () => adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Printer ${uniqueTag()}`, description: 'Jams on page two', priority: 'normal' } });

/** A tab whose app theme (the one the account menu sets) is `theme`. */
const openIn = async (viewport: Viewport, theme: 'light' | 'dark', as?: Awaited<ReturnType<typeof makeAccount>>) => {
  const page = await chrome.open(viewport, { as });
  await page.context().addInitScript(({ key, value }) => localStorage.setItem(key, value), { key: THEME_STORAGE_KEY, value: theme });
  return page;
};

/** Ben (staff) and the admin open the same ticket; Ben saves Priority High and a new description first. */
const benSavesFirst = async (viewport: Viewport, theme: 'light' | 'dark' = 'light') => {
  const ticket = await newTicket();
  const ben = await makeAccount('staff', 'Ben');
  const bens = await openIn(viewport, theme, ben);
  const admins = await openIn(viewport, theme);
  // The admin's tab has no live channel, as with an upstream that offers none: Ben's save does not
  // reach it, so the conflict shows when the admin saves, the path this file proves.
  await admins.route('**/api/v1/live/ticket', (route) => route.fulfill({ status: 404, json: { message: 'Not Found' } }));
  await openTicket(bens, ticket);
  await openTicket(admins, ticket);
  await choose(bens, drawer(bens).getByLabel('Priority'), 'High');
  await drawer(bens).getByLabel('Description').fill('Jams on every page since the update');
  const saved = await saveTicket(bens);
  expect(saved.status).toBe(200);
  // Ben's form sent only what Ben changed.
  expect(saved.sent).toEqual({ priority: 'high', description: 'Jams on every page since the update' });
  return { ticket, ben, admins };
};

const axeOf = async (page: Page) => {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).include('[data-testid="conflict-notice"]').analyze();
  return axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
};

describe('overwriting after a conflict', () => {
  it("keeps a colleague's changes to other fields: only the admin's title goes over Ben's save", async () => {
    const { ticket, admins } = await benSavesFirst(DESKTOP);
    await drawer(admins).getByLabel('Title').fill(`${ticket.title} on floor 2`);
    const refused = await saveTicket(admins);
    expect(refused).toEqual({ status: 412, sent: { title: `${ticket.title} on floor 2` } });
    const notice = drawer(admins).getByTestId('conflict-notice');
    await notice.waitFor();
    // Nobody else touched the title: nothing to choose.
    expect(await notice.getByTestId('conflict-choices').count()).toBe(0);

    const written = await overwrite(admins, /^tickets\/\d+$/);
    expect(written).toEqual({ status: 200, sent: { title: `${ticket.title} on floor 2` } });
    await notice.waitFor({ state: 'hidden' });
    expect(await adminApi<Ticket>(`tickets/${ticket.id}`)).toMatchObject({
      title: `${ticket.title} on floor 2`,
      priority: 'high',
      description: 'Jams on every page since the update',
    });
    // Saved, the drawer reads the ticket as stored, Ben's fields included.
    await expect.poll(() => drawer(admins).getByTestId('ticket-view').getByRole('definition').nth(1).textContent(), POLL).toBe('High');

    // The history: Ben's change, then the admin's title only; nothing put Ben's fields back.
    const history = await adminApi<ListPage<AuditEntry>>(`audit?entity=ticket&entityId=${ticket.id}&action=update&page=1&pageSize=20`);
    expect(history.items.map((entry) => Object.keys(entry.changes ?? {}).sort())).toEqual([['title'], ['description', 'priority']]);
    for (const entry of history.items) {
      const { changes } = entry;
      expect(changes.priority?.[1]).not.toBe('normal');
      expect(changes.description?.[1]).not.toBe('Jams on page two');
    }
  });

  it.each([
    ['light', 'desktop', DESKTOP],
    ['dark', 'desktop', DESKTOP],
    ['light', 'phone', PHONE],
    ['dark', 'phone', PHONE],
  ] as const)('a field both changed shows both values and the person picks by keyboard (%s, %s)', async (theme, width, viewport) => {
    const { ticket, admins } = await benSavesFirst(viewport, theme);
    expect(await admins.locator('html').getAttribute('data-mantine-color-scheme')).toBe(theme);
    await drawer(admins).getByLabel('Title').fill(`${ticket.title} again`);
    await choose(admins, drawer(admins).getByLabel('Priority'), 'Urgent');
    expect((await saveTicket(admins)).status).toBe(412);
    const notice = drawer(admins).getByTestId('conflict-notice');
    await notice.waitFor();

    const priority = notice.getByRole('radiogroup', { name: 'Priority' });
    const theirs = priority.getByRole('radio', { name: 'Theirs: High' });
    const mine = priority.getByRole('radio', { name: 'Mine: Urgent' });
    expect(await mine.isChecked()).toBe(true);
    expect(await theirs.isChecked()).toBe(false);
    // Only the priority clashes: the title was the admin's alone, the description Ben's alone.
    expect(await notice.getByRole('radiogroup').count()).toBe(1);

    await settled(notice);
    await notice.scrollIntoViewIfNeeded();
    await screenshot(admins, `conflict-choices-${theme}-${width}`);
    expect(await axeOf(admins)).toEqual([]);

    // Keyboard alone: the checked radio takes focus, an arrow picks the other.
    await mine.focus();
    await admins.keyboard.press('ArrowUp');
    await expect.poll(() => theirs.isChecked(), POLL).toBe(true);
    expect(await axeOf(admins)).toEqual([]);

    const written = await overwrite(admins, /^tickets\/\d+$/);
    expect(written).toEqual({ status: 200, sent: { title: `${ticket.title} again` } });
    await toast(admins, 'success', 'Ticket saved').waitFor();
    expect(await adminApi<Ticket>(`tickets/${ticket.id}`)).toMatchObject({
      title: `${ticket.title} again`,
      priority: 'high',
      description: 'Jams on every page since the update',
    });
  });

  it("a company form: the admin's new name goes over a colleague's new phone without undoing it, and picking mine sends mine", async () => {
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Harbour ${uniqueTag()}`, phone: '555 0100', email: 'old@example.com' } });
    const page = await chrome.open(DESKTOP);
    await page.goto(`/lookups/companies?id=${company.id}`);
    const form = drawer(page);
    await expect.poll(() => form.getByLabel('Name').inputValue(), POLL).toBe(company.name);
    // A colleague saves a new phone and email meanwhile.
    await adminApi(`companies/${company.id}`, { method: 'PATCH', body: { phone: '555 0199', email: 'theirs@example.com' } });

    await form.getByLabel('Name').fill(`${company.name} Ltd`);
    await form.getByLabel('Email').fill('mine@example.com');
    const save = await patchBy(page, /^companies\/\d+$/, form.getByRole('button', { name: 'Save changes' }));
    expect(save).toEqual({ status: 412, sent: { name: `${company.name} Ltd`, email: 'mine@example.com' } });
    const notice = form.getByTestId('conflict-notice');
    await notice.waitFor();
    const email = notice.getByRole('radiogroup', { name: 'Email' });
    await email.getByRole('radio', { name: 'Theirs: theirs@example.com' }).waitFor();
    expect(await email.getByRole('radio', { name: 'Mine: mine@example.com' }).isChecked()).toBe(true);

    const written = await overwrite(page, /^companies\/\d+$/);
    expect(written).toEqual({ status: 200, sent: { name: `${company.name} Ltd`, email: 'mine@example.com' } });
    expect(await adminApi<Company>(`companies/${company.id}`)).toMatchObject({ name: `${company.name} Ltd`, email: 'mine@example.com', phone: '555 0199' });
  });
});
