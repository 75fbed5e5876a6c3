import { describe, expect, it } from 'vitest';
import type { DashboardSummary, Page, Ticket } from '../../src/shared/types';
import { PHONE } from './fixtures';
import { POLL, adminApi, apiResponse, browserPerFile, drawer, heading, makeAccount, modal, screenshot } from './fixtures';

const chrome = browserPerFile();

const CARDS = ['Open tickets', 'My open tickets', 'Overdue', 'Resolved, last 7 days', 'Hours this week', 'Unbilled'];

describe('dashboard cards', () => {
  it('every card is a link named by its label and figure', async () => {
    for (const viewport of [undefined, PHONE]) {
      const page = await chrome.open(viewport);
      await page.goto('/dashboard/');
      await heading(page, 'Dashboard');
      for (const label of CARDS) {
        // Named by its label and, once loaded, its figure.
        const link = page.getByRole('link', { name: new RegExp(`^${label} \\S`) });
        await link.waitFor();
      }
      await screenshot(page, `dashboard-cards-${viewport ? 'phone' : 'desktop'}`);
    }
  });

  it('Overdue opens the ticket list filtered to overdue tickets, as many as the card counts', async () => {
    const summary = await adminApi<DashboardSummary>('dashboard/summary');
    const page = await chrome.open();
    await page.goto('/dashboard/');
    const listed = apiResponse(page, /^tickets\?(?=.*overdue=true)/);
    await page.getByRole('link', { name: /^Overdue \d/ }).click();
    await heading(page, 'Tickets');
    const answer = await listed;
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as Page<Ticket>).total).toBe(summary.overdue);
    expect(new URL(page.url()).search).toBe('?overdue=true&sort=dueAt');
    expect(await page.getByRole('checkbox', { name: 'Overdue' }).isChecked()).toBe(true);
    await screenshot(page, 'tickets-overdue-desktop');
    // The filter is an ordinary, labelled control: unticking it shows every ticket again.
    const all = apiResponse(page, /^tickets\?(?!.*overdue)/);
    await page.getByRole('checkbox', { name: 'Overdue' }).click();
    await all;
    expect(new URL(page.url()).searchParams.get('overdue')).toBeNull();
  });

  it('My open tickets opens the list of my open tickets', async () => {
    const summary = await adminApi<DashboardSummary>('dashboard/summary');
    const page = await chrome.open();
    await page.goto('/dashboard/');
    const listed = apiResponse(page, /^tickets\?(?=.*mine=true)(?=.*open=true)/);
    await page.getByRole('link', { name: /^My open tickets \d/ }).click();
    expect(((await (await listed).json()) as Page<Ticket>).total).toBe(summary.myOpenTickets);
    expect(await page.getByRole('checkbox', { name: 'Assigned to me' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Open only' }).isChecked()).toBe(true);
  });

  it('Hours this week opens the timesheet', async () => {
    const page = await chrome.open();
    await page.goto('/dashboard/');
    await page.getByRole('link', { name: /^Hours this week \d/ }).click();
    await heading(page, 'Timesheet');
  });
});

describe('assignees', () => {
  it('offers active people only; a ticket already assigned to someone inactive shows them, marked', async () => {
    const leaver = await makeAccount('staff', 'Leaver');
    const name = `${leaver.firstName} ${leaver.surname}`;
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: 'Assigned to a leaver', assigneeId: leaver.id } });
    await adminApi('users', { method: 'PATCH', body: { id: leaver.id, isActive: false } });

    const page = await chrome.open();
    await page.goto('/tickets/');
    await heading(page, 'Tickets');
    await page.getByRole('button', { name: 'New ticket' }).click();
    await modal(page).getByLabel('Assignee').click();
    const options = page.getByRole('listbox').last();
    await options.getByRole('option').first().waitFor();
    const offered = await options.getByRole('option').allTextContents();
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.some((option) => option.startsWith(name))).toBe(false);
    await page.keyboard.press('Escape');

    await page.goto(`/tickets/?id=${ticket.id}`);
    await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
    const assignee = drawer(page).getByLabel('Assignee');
    await expect.poll(() => assignee.inputValue(), POLL).toBe(`${name} (inactive)`);
  });
});
