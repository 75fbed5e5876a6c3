import { describe, expect, it } from 'vitest';
import type { MailLogEntry } from '../../src/shared/mail';
import type { Company, Page as ListPage, Ticket } from '../../src/shared/types';
import { POLL, adminApi, browserPerFile, mailToApp, drawer, drawerTitle, expectText, screenshot, toast, uniqueTag } from './fixtures';

// Requesters as a desk uses them under `npm start`: an admin gives a company its mail domain in the
// Companies page, a customer's mail opens a ticket, and the reply goes back by mail.
const chrome = browserPerFile();

describe('a customer writes in', () => {
  it('the company takes its domain, the mail becomes a ticket showing its requester, and a reply goes back by mail', async () => {
    const tag = uniqueTag().toLowerCase().replace(/[^a-z0-9]/g, '');
    const domain = `cust${tag}.test`;
    const company = await adminApi<Company>('companies', { method: 'POST', body: { name: `Customer ${tag}` } });

    const page = await chrome.open();
    await page.goto(`/lookups/companies/?id=${company.id}`);
    await expectText(drawerTitle(page), company.name);
    const domains = drawer(page).getByLabel('Mail domains');
    await domains.fill(`@${domain.toUpperCase()}`);
    await domains.press('Enter');
    await drawer(page).getByRole('button', { name: 'Save changes' }).click();
    await toast(page, 'success', 'Company saved').waitFor();
    expect((await adminApi<Company>(`companies/${company.id}`)).emailDomains).toEqual([domain]);

    const from = `pat@${domain}`;
    const subject = `Scanner offline ${tag}`;
    const res = await mailToApp(from, 'support@localhost.test', `From: Pat Customer <${from}>\nTo: support@localhost.test\nSubject: ${subject}`, 'The scanner on floor 2 is offline.');
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    const ticket = (await adminApi<ListPage<Ticket>>(`tickets?q=${encodeURIComponent(`"${subject}"`)}`)).items[0];
    expect(ticket).toMatchObject({ companyId: company.id, reporterId: null, requester: { email: from, name: 'Pat Customer' } });

    await page.goto(`/tickets/?id=${ticket?.id}`);
    await drawer(page).getByRole('heading', { name: subject }).first().waitFor();
    await drawer(page).getByText(`From Pat Customer <${from}> by mail on `).waitFor();
    const box = drawer(page).getByRole('textbox', { name: 'New comment' });
    await box.fill('A technician is on the way.');
    await drawer(page).getByRole('checkbox', { name: `Reply by mail to ${from}` }).check();
    await screenshot(page, 'requester-reply-desktop');
    await drawer(page).getByRole('button', { name: 'Add comment' }).click();
    await toast(page, 'success', `Comment added and mailed to ${from}`).waitFor();
    await drawer(page).getByText('Mailed to the requester').waitFor();
    // The box starts again as an internal note, so the next comment is not mailed by accident.
    expect(await drawer(page).getByRole('checkbox', { name: `Reply by mail to ${from}` }).isChecked()).toBe(false);
    await expect
      .poll(async () => (await adminApi<ListPage<MailLogEntry>>('settings/mail?pageSize=100')).items.filter((mail) => mail.to === from).map((mail) => [mail.kind, mail.status]), POLL)
      .toEqual([['reply', 'sent']]);
  });
});
