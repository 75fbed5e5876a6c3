import { describe, expect, it } from 'vitest';
import type { Calendar, SlaPolicy } from '../../src/shared/sla';
import { PHONE, adminApi, apiResponse, browserPerFile, choose, drawer, drawerTitle, expectText, fieldError, heading, makeAccount, modal, screenshot, toast, uniqueTag } from './fixtures';

// Calendars and SLA policies (docs/api.md#service-levels) are kept like the other lookups: admins
// make and change them through the same list, dialog and drawer; everyone else reads them.
const chrome = browserPerFile();

describe('calendars and SLA policies', () => {
  it('an admin makes a calendar with hours and holidays, then a policy that counts in it', async () => {
    const name = `Office ${uniqueTag()}`;
    const page = await chrome.open();
    await page.goto('/lookups/calendars/');
    await heading(page, 'Calendars');
    await page.getByRole('button', { name: 'New calendar' }).first().click();
    const form = modal(page);
    await form.getByLabel('Name').fill(name);
    const zone = form.getByLabel('Time zone', { exact: true });
    await zone.fill('Europe/Lon');
    await page.getByRole('option', { name: 'Europe/London', exact: true }).click();
    await form.getByRole('button', { name: 'Add hours' }).click();
    await form.getByRole('button', { name: 'Add hours' }).click();
    await form.getByLabel('From, hours 2').fill('10:00');
    await form.getByLabel('To, hours 2').fill('16:30');
    const holidays = form.getByLabel('Holidays');
    await holidays.fill('2026-12-25\n2026-02-30');
    await holidays.blur();
    await expect.poll(() => fieldError(holidays)).toBe('Must be a real date');
    await holidays.fill('2026-12-25\n2026-12-26');
    await screenshot(page, 'calendar-new-desktop');
    const posted = apiResponse(page, /^calendars$/, 'POST');
    await form.getByRole('button', { name: 'Create calendar' }).click();
    expect((await posted).status()).toBe(201);
    await toast(page, 'success', 'Calendar created').waitFor();
    await expectText(drawerTitle(page), name);
    const calendar = (await adminApi<{ items: Calendar[] }>(`calendars?q=${encodeURIComponent(name)}`)).items[0];
    expect(calendar).toMatchObject({
      timeZone: 'Europe/London',
      hours: [
        { day: 1, from: '09:00', to: '17:00' },
        { day: 2, from: '10:00', to: '16:30' },
      ],
      holidays: ['2026-12-25', '2026-12-26'],
    });

    const policyName = `Gold ${uniqueTag()}`;
    await page.goto('/lookups/sla-policies/');
    await heading(page, 'SLA policies');
    await page.getByRole('button', { name: 'New policy' }).first().click();
    const policyForm = modal(page);
    await policyForm.getByLabel('Name').fill(policyName);
    await choose(page, policyForm.getByLabel('Priority', { exact: true }), 'Urgent');
    const calendarBox = policyForm.getByLabel('Calendar', { exact: true });
    await calendarBox.fill(name);
    await page.getByRole('option', { name, exact: true }).click();
    await policyForm.getByLabel('First response target (business minutes)').fill('60');
    await policyForm.getByLabel('Resolution target (business minutes)').fill('30');
    await policyForm.getByLabel('Resolution target (business minutes)').blur();
    await expect.poll(() => fieldError(policyForm.getByLabel('Resolution target (business minutes)'))).toBe('Must not be shorter than the first response target');
    await policyForm.getByLabel('Resolution target (business minutes)').fill('480');
    const created = apiResponse(page, /^sla-policies$/, 'POST');
    await policyForm.getByRole('button', { name: 'Create policy' }).click();
    expect((await created).status()).toBe(201);
    await toast(page, 'success', 'Policy created').waitFor();
    await expectText(drawerTitle(page), policyName);
    const policy = (await adminApi<{ items: SlaPolicy[] }>(`sla-policies?q=${encodeURIComponent(policyName)}`)).items[0];
    expect(policy).toMatchObject({ priority: 'urgent', calendarId: calendar?.id, firstResponseMinutes: 60, resolutionMinutes: 480, companyId: null });
    await screenshot(page, 'sla-policy-drawer-desktop');

    // The calendar is now in use: its delete dialog says so instead of deleting.
    await page.goto(`/lookups/calendars/?id=${calendar?.id}`);
    await drawer(page).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete calendar?' }).getByText('Move those policies to another calendar first.').waitFor();
  });

  it('staff read calendars and policies without the means to change them', async () => {
    const calendar = await adminApi<Calendar>('calendars', { method: 'POST', body: { name: `Read ${uniqueTag()}`, timeZone: 'Australia/Sydney', hours: [{ day: 5, from: '22:00', to: '06:00' }] } });
    const person = await makeAccount('staff', 'Sky');
    const page = await chrome.open(PHONE, { as: person });
    await page.goto(`/lookups/calendars/?id=${calendar.id}`);
    await expectText(drawerTitle(page), calendar.name);
    await drawer(page).getByText('Friday 22:00–06:00').waitFor();
    expect(await drawer(page).getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New calendar' }).count()).toBe(0);
    await screenshot(page, 'calendar-read-only-phone');
    await page.goto('/lookups/sla-policies/');
    await heading(page, 'SLA policies');
    expect(await page.getByRole('button', { name: 'New policy' }).count()).toBe(0);
  });
});
