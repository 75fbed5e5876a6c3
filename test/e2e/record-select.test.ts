import { describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '../../src/shared/constants';
import type { Company, Page as ListPage } from '../../src/shared/types';
import { POLL, adminApi, apiResponse, browserPerFile, heading, tableLoaded, uniqueTag } from './fixtures';

const chrome = browserPerFile();

/** Makes companies through the API until there are more than one list call answers. */
const fillPastOnePage = async (tag: string) => {
  const { total } = await adminApi<ListPage<Company>>('companies?pageSize=1');
  const names = Array.from({ length: Math.max(0, MAX_PAGE_SIZE + 1 - total) }, (_, n) => `Bulk ${tag} ${n}`);
  // A few at a time: enough to be quick, few enough not to crowd the two-core machine.
  for (let start = 0; start < names.length; start += 10) {
    await Promise.all(names.slice(start, start + 10).map((name) => adminApi('companies', { method: 'POST', body: { name } })));
  }
};

describe('record selects', () => {
  it('find a company past the first page by what is typed, and name it when the address holds it', async () => {
    const tag = uniqueTag();
    await fillPastOnePage(tag);
    const wanted = await adminApi<Company>('companies', { method: 'POST', body: { name: `Zz Record Select ${tag}` } });
    const firstPage = await adminApi<ListPage<Company>>(`companies?pageSize=${MAX_PAGE_SIZE}`);
    expect(firstPage.total).toBeGreaterThan(MAX_PAGE_SIZE);
    expect(firstPage.items.map((company) => company.id)).not.toContain(wanted.id);

    const page = await chrome.open();
    await page.goto('/tickets/');
    await heading(page, 'Tickets');
    await tableLoaded(page, 'Tickets');
    const company = page.getByRole('combobox', { name: 'Company' });
    const searched = apiResponse(page, /^companies\?q=/);
    await company.fill(wanted.name);
    expect((await searched).status()).toBe(200);
    const filtered = apiResponse(page, new RegExp(`^tickets\\?.*companyId=${wanted.id}`));
    await page.getByRole('listbox').last().getByRole('option', { name: wanted.name, exact: true }).click();
    expect((await filtered).status()).toBe(200);
    await page.waitForURL((url) => url.searchParams.get('companyId') === String(wanted.id));

    // A reload (or a shared link) holds only the id: the select reads that company to name it.
    await page.reload();
    await heading(page, 'Tickets');
    await expect.poll(() => page.getByRole('combobox', { name: 'Company' }).inputValue(), POLL).toBe(wanted.name);
  });
});
