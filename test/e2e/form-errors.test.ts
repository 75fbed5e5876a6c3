import { describe, expect, it } from 'vitest';
import type { Company, Ticket, TicketComment } from '../../src/shared/types';
import { fieldError } from './fixtures';
import { POLL, adminApi, apiResponse, browserPerFile, drawer, heading, modal, toast, uniqueTag } from './fixtures';

// A failed write keeps what was typed, and the provider's field errors show under their fields.
const chrome = browserPerFile();

describe('failed writes keep the input', () => {
  it('a comment that fails to save stays in its box; sent again, it is added and the box empties', async () => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Comment ${uniqueTag()}`, priority: 'normal' } });
    const page = await chrome.open();
    await page.goto(`/tickets/?id=${ticket.id}`);
    const box = drawer(page).getByLabel('New comment');
    await box.waitFor();
    const text = `A careful answer to the customer ${uniqueTag()}\nwith a second line`;
    await box.fill(text);

    // The network drops the request, as a flaky connection would.
    await page.route('**/api/v1/tickets/*/comments', (route) => (route.request().method() === 'POST' ? route.abort('failed') : route.fallback()));
    await drawer(page).getByRole('button', { name: 'Add comment' }).click();
    await toast(page, 'error', 'Comment not added').waitFor();
    expect(await box.inputValue()).toBe(text);
    expect(await drawer(page).getByRole('button', { name: 'Add comment' }).isEnabled()).toBe(true);

    await page.unrouteAll();
    const posted = apiResponse(page, /^tickets\/\d+\/comments$/, 'POST');
    await drawer(page).getByRole('button', { name: 'Add comment' }).click();
    expect((await posted).status()).toBe(201);
    await expect.poll(() => box.inputValue(), POLL).toBe('');
    await drawer(page).getByText('A careful answer to the customer', { exact: false }).waitFor();
    const stored = await adminApi<{ items: TicketComment[] }>(`tickets/${ticket.id}/comments`);
    expect(stored.items.map((comment) => comment.body)).toEqual([text]);
  });

  it('a duplicate company name shows under the Name field and the dialog keeps what was typed', async () => {
    const taken = await adminApi<Company>('companies', { method: 'POST', body: { name: `E2E Taken ${uniqueTag()}` } });
    const page = await chrome.open();
    await page.goto('/lookups/companies/');
    await heading(page, 'Companies');
    await page.getByRole('button', { name: 'New company' }).click();
    const dialog = modal(page).filter({ hasText: 'New company' });
    const name = dialog.getByLabel('Name');
    await name.fill(taken.name.toUpperCase());
    await dialog.getByLabel('Email').fill('billing@example.com');
    const posted = apiResponse(page, /^companies$/, 'POST');
    await dialog.getByRole('button', { name: 'Create company' }).click();
    expect((await posted).status()).toBe(409);

    await expect.poll(() => fieldError(name), POLL).toBe('A company with this name already exists');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.inputValue()).toBe(taken.name.toUpperCase());
    expect(await dialog.getByLabel('Email').inputValue()).toBe('billing@example.com');

    // A changed name clears the server's message; a free one is created.
    await name.fill(`${taken.name} two`);
    await expect.poll(() => fieldError(name), POLL).toBeNull();
    await dialog.getByRole('button', { name: 'Create company' }).click();
    await toast(page, 'success', 'Company created').waitFor();
  });
});
