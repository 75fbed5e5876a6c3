import { describe, expect, it } from 'vitest';
import type { Ticket, TimeEntry } from '../../src/shared/types';
import { POLL, PHONE, adminApi, apiResponse, browserPerFile, drawer, expectText, makeAccount, screenshot, sessionFor, textOf, toast, uniqueTag, api } from './fixtures';

// Corrections (README "Corrections"): a person fixes their own time entry and the timesheet follows.

const chrome = browserPerFile();

// A week of its own, far from the demo data and other tests' time, so the person's row is theirs alone.
const DAY = '2025-02-05';

describe('time corrections', () => {
  it('edits a time entry from 450 to 45 minutes and the timesheet shows 0.75 hours', async () => {
    const person = await makeAccount('staff', 'Corrie');
    const { token } = await sessionFor(person);
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Correct my time ${uniqueTag()}` } });
    const logged = await api<TimeEntry>(`tickets/${ticket.id}/time-entries`, { method: 'POST', token, body: { workDate: DAY, minutes: 450, note: 'Typo' } });
    expect(logged.status).toBe(201);

    const page = await chrome.open(undefined, { as: person });
    const name = `${person.firstName} ${person.surname}`;
    const row = page.getByRole('table', { name: 'Hours per person per day' }).getByRole('row').filter({ hasText: name });
    await page.goto(`/reports/timesheet/?view=week&from=${DAY}`);
    await expectText(row.getByRole('cell').last(), '7.50');

    await page.goto(`/tickets/?id=${ticket.id}`);
    const panel = drawer(page);
    const total = panel.getByTestId('time-total');
    await expectText(total, '7 h 30 min logged · 7 h 30 min billable');
    await panel.getByRole('button', { name: /^Edit time entry of/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Edit time entry of/ });
    await dialog.getByLabel('Minutes').fill('45');
    const saved = apiResponse(page, new RegExp(`^tickets/${ticket.id}/time-entries/${logged.body.id}$`), 'PATCH');
    await dialog.getByRole('button', { name: 'Save time' }).click();
    const answer = await saved;
    expect(answer.status()).toBe(200);
    expect(answer.request().headers()['if-match']).toBe('"1"');
    await toast(page, 'success', 'Time corrected').waitFor();
    await expectText(total, '45 min logged · 45 min billable');
    await screenshot(page, 'corrections-time-drawer-desktop');

    await page.goto(`/reports/timesheet/?view=week&from=${DAY}`);
    await expectText(row.getByRole('cell').last(), '0.75');
    expect(await textOf(row.getByRole('cell').nth(-2))).toBe('0.75');
  });

  it('deletes a comment of your own on a phone, and offers nothing on someone else’s', async () => {
    const person = await makeAccount('staff', 'Commie');
    const { token } = await sessionFor(person);
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Comments ${uniqueTag()}` } });
    await adminApi(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'From the admin' } });
    expect((await api(`tickets/${ticket.id}/comments`, { method: 'POST', token, body: { body: 'Mine to take back' } })).status).toBe(201);

    const page = await chrome.open(PHONE, { as: person });
    await page.goto(`/tickets/?id=${ticket.id}`);
    const panel = drawer(page);
    await panel.locator('p', { hasText: 'Mine to take back' }).waitFor();
    const deletes = panel.getByRole('button', { name: /^Delete comment by/ });
    await expect.poll(() => deletes.count(), POLL).toBe(1);
    await deletes.click();
    const removed = apiResponse(page, new RegExp(`^tickets/${ticket.id}/comments/\\d+$`), 'DELETE');
    await page.getByRole('dialog', { name: /^Delete comment by .*\?$/ }).getByRole('button', { name: 'Delete', exact: true }).click();
    expect((await removed).status()).toBe(204);
    await expect.poll(() => panel.locator('p', { hasText: 'Mine to take back' }).count(), POLL).toBe(0);
    await panel.locator('p', { hasText: 'From the admin' }).waitFor();
  });
});
