import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import { addDays, localDay } from '../../src/shared/dates';
import { isoWeekOf } from '../../src/shared/iso-week';
import type { Company, StatementDetail, Ticket } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, adminApi, apiAs, browserPerFile, drawer, liveHello, makeAccount, screenshot, sessionFor } from './fixtures';

// Timesheets that close (docs/api.md#timesheets), as two people: a staff member submits their
// week, billing approves it, and the time in it is locked; a week sent back carries its reason.
const chrome = browserPerFile();
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const person = async (role: 'staff' | 'billing', name: string) => {
  const account = await makeAccount(role, name);
  const { token } = await sessionFor(account);
  return { ...account, call: apiAs(token), name: `${account.firstName} ${account.surname}` };
};
type Person = Awaited<ReturnType<typeof person>>;

const logTime = async (who: Person, ticketId: number, workDate: string, minutes = 60) => {
  const answer = await who.call(`tickets/${ticketId}/time-entries`, { method: 'POST', body: { workDate, minutes } });
  expect(answer.status).toBe(201);
};

const myWeek = (page: Page) => page.getByTestId('my-week');
const rowOf = (page: Page, who: Person) => page.getByTestId('approvals').getByTestId('week-row').filter({ hasText: who.name });

const axeClean = async (page: Page, selector: string) => {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).include(selector).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
};

describe('a week submitted, approved and locked', () => {
  it('staff submits, billing approves, and staff can no longer add time in that week', async () => {
    const staff = await person('staff', 'Sasha');
    const billing = await person('billing', 'Bill');
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: 'Timesheet week' } });
    const today = localDay();
    const week = isoWeekOf(today);
    await logTime(staff, ticket.id, today, 90);

    const staffPage = await chrome.open(DESKTOP, { as: staff });
    const hello = liveHello(staffPage);
    await staffPage.goto('/reports/timesheet/');
    await hello;
    await expect.poll(() => myWeek(staffPage).getByTestId('week-state').textContent(), POLL).toBe('Open');
    await myWeek(staffPage).getByRole('button', { name: 'Submit week' }).click();
    await expect.poll(() => myWeek(staffPage).getByTestId('week-state').textContent(), POLL).toBe('Submitted');
    await myWeek(staffPage).getByText(`Week ${week} submitted`).waitFor();

    const billingPage = await chrome.open(DESKTOP, { as: billing });
    await billingPage.goto('/reports/timesheet/');
    await expect.poll(() => rowOf(billingPage, staff).getByTestId('week-state').textContent(), POLL).toBe('Submitted');
    await rowOf(billingPage, staff).getByRole('button', { name: `Approve ${staff.name}` }).click();
    await expect.poll(() => rowOf(billingPage, staff).getByTestId('week-state').textContent(), POLL).toBe('Approved');

    // The staff member's open page hears of the decision and re-reads the week, no reload.
    await expect.poll(() => myWeek(staffPage).getByTestId('week-state').textContent(), POLL).toBe('Approved');
    await myWeek(staffPage).getByText('Time in this week is locked.').waitFor();

    await staffPage.goto(`/tickets/?id=${ticket.id}`);
    const panel = drawer(staffPage);
    await panel.getByTestId('locked-week').filter({ hasText: `Your week ${week} is approved` }).waitFor();
    await panel.getByLabel('Minutes').fill('30');
    const posted = staffPage.waitForResponse((res) => res.url().endsWith(`/tickets/${ticket.id}/time-entries`) && res.request().method() === 'POST');
    await panel.getByRole('button', { name: 'Log time' }).click();
    expect((await posted).status()).toBe(409);
    await staffPage.getByText(`Week ${week} is approved`).first().waitFor();
  });

  it('billing sends a week back with a reason the person then reads', async () => {
    const staff = await person('staff', 'Robin');
    const billing = await person('billing', 'Blair');
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: 'Timesheet reject' } });
    const lastWeekDay = addDays(localDay(), -7);
    const week = isoWeekOf(lastWeekDay);
    await logTime(staff, ticket.id, lastWeekDay, 45);
    expect((await staff.call(`timesheets/${staff.id}/${week}/submit`, { method: 'POST' })).status).toBe(200);

    const billingPage = await chrome.open(DESKTOP, { as: billing });
    await billingPage.goto('/reports/timesheet/');
    await billingPage.getByRole('button', { name: 'Previous week' }).click();
    await rowOf(billingPage, staff).getByRole('button', { name: `Reject ${staff.name}` }).click();
    const dialog = billingPage.getByRole('dialog', { name: 'Send the week back' });
    await dialog.getByRole('button', { name: 'Reject week' }).click();
    await dialog.getByText('Say why the week is sent back').waitFor();
    await dialog.getByLabel('Reason').fill('Wednesday is missing');
    await dialog.getByRole('button', { name: 'Reject week' }).click();
    await expect.poll(() => rowOf(billingPage, staff).getByTestId('week-state').textContent(), POLL).toBe('Rejected');

    const staffPage = await chrome.open(DESKTOP, { as: staff });
    await staffPage.goto('/reports/timesheet/');
    await staffPage.getByRole('button', { name: 'Previous week' }).click();
    await expect.poll(() => myWeek(staffPage).getByTestId('week-state').textContent(), POLL).toBe('Rejected');
    await myWeek(staffPage).getByText(`Sent back by ${billing.name}: Wednesday is missing`).waitFor();
    await myWeek(staffPage).getByRole('button', { name: 'Submit week' }).waitFor();
  });
});

describe('billing time not signed off', () => {
  it('issuing a statement warns of the weeks with time in its month not approved, and still issues', async () => {
    const staff = await person('staff', 'Uma');
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: 'Old time' } });
    // A month of its own, long past, that no other test bills.
    const period = '2001-02';
    await logTime(staff, ticket.id, '2001-02-06', 75);
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Weekly Works ${staff.firstName}`, address: '1 Main Street' } });
    const line = { description: 'Support', quantity: 1, unitPriceCents: 10_000, period, companyId: company.id, reference: 'PO-1', status: 'approved' };
    await adminApi('invoices/gifs-sla/lines', { method: 'POST', body: line });
    const statement = await adminApi<StatementDetail>('invoices/gifs/statements', { method: 'POST', body: { period } });

    const page = await chrome.open(DESKTOP);
    await page.goto(`/invoices/gifs/statement?statementId=${statement.id}`);
    await page.getByTestId('statement-view').getByRole('button', { name: 'Issue statement' }).click();
    const warning = page.getByTestId('transition-dialog').getByTestId('unapproved-weeks');
    await warning.filter({ hasText: `${staff.name}, 2001-W06 (open, 1 h 15 min)` }).waitFor();
    await page.getByTestId('transition-dialog').getByRole('button', { name: 'Issue statement' }).click();
    await page.getByTestId('transition-dialog').waitFor({ state: 'hidden' });
    const issued = await adminApi<StatementDetail>(`invoices/gifs/statements/${statement.id}`);
    expect(issued.status).toBe('issued');
  });
});

describe.each(['light', 'dark'] as const)('the approvals, %s theme', (theme) => {
  it('read at desktop and phone width, axe clean', async () => {
    const staff = await person('staff', 'Quinn');
    const billing = await person('billing', 'Bea');
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: 'Timesheet look' } });
    const today = localDay();
    await logTime(staff, ticket.id, today, 120);
    await logTime(billing, ticket.id, today, 30);
    expect((await staff.call(`timesheets/${staff.id}/${isoWeekOf(today)}/submit`, { method: 'POST' })).status).toBe(200);
    for (const [name, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const page = await chrome.open(viewport, { as: billing });
      await page.addInitScript(({ key, scheme }) => localStorage.setItem(key, scheme), { key: THEME_STORAGE_KEY, scheme: theme });
      await page.goto('/reports/timesheet/');
      await rowOf(page, staff).getByTestId('week-state').filter({ hasText: 'Submitted' }).waitFor();
      await myWeek(page).getByTestId('week-state').waitFor();
      await screenshot(page, `timesheet-approvals-${theme}-${name}`);
      await axeClean(page, '[data-testid="approvals"]');
      await axeClean(page, '[data-testid="my-week"]');
    }
  });
});
