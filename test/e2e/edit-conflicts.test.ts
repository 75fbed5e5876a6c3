import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import { DESKTOP, PHONE } from './fixtures';
import { POLL, adminApi, apiResponse, browserPerFile, choose, drawer, makeAccount, screenshot, settled, toast, uniqueTag } from './fixtures';

// Two people edit the same ticket (docs/decisions.md#forms-that-never-lose-work-and-edit-conflicts): the second save is not a silent overwrite but a
// conflict that names who changed it, keeps the second person's edits, and lets them choose.
const chrome = browserPerFile();

const openTicket = async (page: Page, ticket: Ticket) => {
  await page.goto(`/tickets/?id=${ticket.id}`);
  await drawer(page).getByRole('button', { name: /^Edit ticket #/ }).click();
  await expect.poll(() => drawer(page).getByLabel('Title').inputValue(), POLL).toBe(ticket.title);
};

const save = async (page: Page) => {
  const patched = apiResponse(page, /^tickets\/\d+$/, 'PATCH');
  await drawer(page).getByRole('button', { name: 'Save ticket' }).click();
  return (await patched).status();
};

describe('two tabs save the same ticket', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('the second save shows who changed it, keeps its edits, and both ways on work (%s)', async (name, viewport) => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Conflict ${uniqueTag()}`, description: 'Original', priority: 'normal' } });
    const colleague = await makeAccount('staff', 'Casey');
    const tabA = await chrome.open(viewport, { as: colleague });
    const tabB = await chrome.open(viewport);
    await openTicket(tabA, ticket);
    await openTicket(tabB, ticket);

    // B starts typing; meanwhile A saves priority Urgent.
    await drawer(tabB).getByLabel('Description').fill('B wrote this carefully');
    await choose(tabA, drawer(tabA).getByLabel('Priority'), 'Urgent');
    expect(await save(tabA)).toBe(200);
    await toast(tabA, 'success', 'Ticket saved').waitFor();

    // B saves its older copy: refused with 412, nothing lost on either side.
    expect(await save(tabB)).toBe(412);
    const notice = drawer(tabB).getByTestId('conflict-notice');
    await notice.waitFor();
    await expect.poll(() => notice.textContent(), POLL).toContain(`${colleague.firstName} ${colleague.surname} saved a newer version`);
    expect(await notice.textContent()).toContain('Priority: Normal');
    expect(await notice.textContent()).toContain('Urgent');
    expect(await drawer(tabB).getByLabel('Description').inputValue()).toBe('B wrote this carefully');
    expect(await adminApi<Ticket>(`tickets/${ticket.id}`)).toMatchObject({ priority: 'urgent', description: 'Original' });
    await settled(notice);
    await notice.scrollIntoViewIfNeeded();
    await screenshot(tabB, `conflict-notice-${name}`);
    const axe = await new AxeBuilder({ page: tabB }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).include('[data-testid="conflict-notice"]').analyze();
    expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

    // "Overwrite with mine": B's own change goes over A's version; A's priority, which B did not touch, stays.
    expect(await (async () => {
      const patched = apiResponse(tabB, /^tickets\/\d+$/, 'PATCH');
      await notice.getByRole('button', { name: 'Overwrite with mine' }).click();
      return (await patched).status();
    })()).toBe(200);
    await toast(tabB, 'success', 'Ticket saved').waitFor();
    await notice.waitFor({ state: 'hidden' });
    expect(await adminApi<Ticket>(`tickets/${ticket.id}`)).toMatchObject({ priority: 'urgent', description: 'B wrote this carefully' });

    // Saved, B's drawer went back to reading; B edits again, and while B types it is changed
    // elsewhere. (Changed before B opens the form, the live channel may already have brought the
    // new version into it, and the save would rightly go through.) This time B takes their version.
    await drawer(tabB).getByRole('button', { name: /^Edit ticket #/ }).click();
    await drawer(tabB).getByLabel('Description').fill('A second thought');
    await adminApi(`tickets/${ticket.id}`, { method: 'PATCH', body: { title: `${ticket.title} renamed` } });
    expect(await save(tabB)).toBe(412);
    await notice.waitFor();
    await notice.getByRole('button', { name: 'Reload their version' }).click();
    await notice.waitFor({ state: 'hidden' });
    await expect.poll(() => drawer(tabB).getByLabel('Title').inputValue(), POLL).toBe(`${ticket.title} renamed`);
    expect(await drawer(tabB).getByLabel('Description').inputValue()).toBe('B wrote this carefully');

    // Their version is now the one B edits: the next save goes through.
    await choose(tabB, drawer(tabB).getByLabel('Priority'), 'High');
    expect(await save(tabB)).toBe(200);
    expect(await adminApi<Ticket>(`tickets/${ticket.id}`)).toMatchObject({ priority: 'high', title: `${ticket.title} renamed`, description: 'B wrote this carefully' });
  });
});
