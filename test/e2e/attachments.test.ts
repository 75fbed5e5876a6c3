import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { Attachment } from '../../src/shared/schemas/attachments';
import type { Ticket } from '../../src/shared/types';
import { DESKTOP, PHONE, POLL, TINY_PNG, adminApi, adminAttach, apiResponse, browserPerFile, drawer, makeAccount, screenshot, settled, toast, uniqueTag } from './fixtures';

const chrome = browserPerFile();

const makeTicket = () => adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Attachments ${uniqueTag()}` } });

const openTicket = async (page: Page, id: number) => {
  const listed = apiResponse(page, new RegExp(`^tickets/${id}/attachments$`));
  await page.goto(`/tickets/?id=${id}`);
  await listed;
  return drawer(page).getByRole('group', { name: 'Add files' });
};

const files = (page: Page) => drawer(page).getByRole('list', { name: 'Files', exact: true }).getByRole('listitem');

/** Runs in the page: a File made there, so DataTransfer and ClipboardEvent can carry it. */
const pngInPage = (bytes: number[], name: string) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

describe('attachments', () => {
  it('uploads a dropped file with a progress bar and shows it with its size, uploader and a thumbnail', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open();
    const zone = await openTicket(page, ticket.id);
    // Held until the progress bar has been seen, so a fast local upload cannot skip it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/api/v1/tickets/${ticket.id}/attachments`, async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.fallback();
    });
    const posted = apiResponse(page, new RegExp(`^tickets/${ticket.id}/attachments$`), 'POST');
    await zone.evaluate(
      (element, [bytes, make]) => {
        const file = new Function(`return (${make})`)()(bytes, 'dropped.png') as File;
        const data = new DataTransfer();
        data.items.add(file);
        element.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
        element.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      },
      [Array.from(TINY_PNG), pngInPage.toString()] as const,
    );
    // At 0 % the bar's filled part has no width, so it is waited for in the page, not as visible.
    await drawer(page).getByRole('progressbar', { name: 'Uploading dropped.png' }).waitFor({ state: 'attached' });
    await drawer(page).getByText('Uploading dropped.png').waitFor();
    release();
    expect((await posted).status()).toBe(201);
    await toast(page, 'success', 'File attached').waitFor();
    const row = files(page).filter({ hasText: 'dropped.png' });
    await expect.poll(() => row.textContent(), POLL).toMatch(new RegExp(`^dropped\\.png${TINY_PNG.length} bytes · Demo Admin · `));
    const thumbnail = row.getByRole('img', { name: 'dropped.png' });
    await thumbnail.waitFor();
    // Drawn from an object URL fetched with the token: no address carries it.
    expect(await thumbnail.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL).toBe(2);
    await drawer(page).getByRole('progressbar').waitFor({ state: 'detached' });
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'attachments-desktop');
  });

  it('attaches a pasted screenshot', async () => {
    const ticket = await makeTicket();
    const page = await chrome.open(PHONE);
    await openTicket(page, ticket.id);
    const posted = apiResponse(page, new RegExp(`^tickets/${ticket.id}/attachments$`), 'POST');
    await page.evaluate(
      ([bytes, make]) => {
        const file = new Function(`return (${make})`)()(bytes, 'image.png') as File;
        const data = new DataTransfer();
        data.items.add(file);
        document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      [Array.from(TINY_PNG), pngInPage.toString()] as const,
    );
    const answer = await posted;
    expect(answer.status()).toBe(201);
    const stored = (await answer.json()) as Attachment;
    // Named by the page's local time, not the browser's "image.png".
    expect(stored).toMatchObject({ contentType: 'image/png', bytes: TINY_PNG.length });
    expect(stored.name).toMatch(/^Screenshot \d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.png$/);
    await files(page).filter({ hasText: stored.name }).getByRole('img', { name: stored.name }).waitFor();
    await files(page).first().scrollIntoViewIfNeeded();
    await screenshot(page, 'attachments-phone');
    await page.evaluate((key) => localStorage.setItem(key, 'dark'), THEME_STORAGE_KEY);
    await page.reload();
    await files(page).filter({ hasText: stored.name }).getByRole('img', { name: stored.name }).waitFor();
    await files(page).first().scrollIntoViewIfNeeded();
    await screenshot(page, 'attachments-phone-dark');
  });

  it('attaches a file dropped on a comment to that comment', async () => {
    const ticket = await makeTicket();
    const comment = await adminApi<{ id: number }>(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: 'Here is the log' } });
    const page = await chrome.open();
    await openTicket(page, ticket.id);
    const attach = drawer(page).getByRole('button', { name: /^Attach files to Demo Admin's comment/ });
    const posted = apiResponse(page, new RegExp(`^tickets/${ticket.id}/attachments$`), 'POST');
    await attach.evaluate(
      (element, [bytes, make]) => {
        const data = new DataTransfer();
        data.items.add(new Function(`return (${make})`)()(bytes, 'on-comment.png') as File);
        element.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      },
      [Array.from(TINY_PNG), pngInPage.toString()] as const,
    );
    const answer = await posted;
    expect(answer.status()).toBe(201);
    expect(((await answer.json()) as Attachment).commentId).toBe(comment.id);
    await drawer(page).getByRole('list', { name: /^Files of Demo Admin's comment/ }).getByRole('img', { name: 'on-comment.png' }).waitFor();
    await expect.poll(() => files(page).filter({ hasText: 'on-comment.png' }).textContent(), POLL).toMatch(/ · on a commentDelete$/);
  });

  it("deletes the uploader's own file; someone else's has no Delete, and an admin's Delete works", async () => {
    const ticket = await makeTicket();
    const mine = await adminAttach(ticket.id, new TextEncoder().encode('notes'), `notes-${uniqueTag()}.txt`);
    const staff = await makeAccount('staff', 'Sam');
    const staffPage = await chrome.open(DESKTOP, { as: staff });
    await openTicket(staffPage, ticket.id);
    const row = files(staffPage).filter({ hasText: mine.name });
    await row.waitFor();
    expect(await row.getByRole('button', { name: `Delete ${mine.name}` }).count()).toBe(0);

    const page = await chrome.open();
    await openTicket(page, ticket.id);
    let deletes = 0;
    page.on('request', (request) => {
      if (request.method() === 'DELETE' && request.url().endsWith(`/attachments/${mine.id}`)) deletes += 1;
    });
    const deleteButton = files(page).filter({ hasText: mine.name }).getByRole('button', { name: `Delete ${mine.name}` });
    // Asked first, naming the file, as a comment's Delete is; Cancel keeps it.
    await deleteButton.click();
    const confirm = page.getByRole('dialog', { name: `Delete ${mine.name}?` });
    await settled(confirm);
    await screenshot(page, 'attachments-delete-confirm-desktop');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(deletes).toBe(0);
    await files(page).filter({ hasText: mine.name }).waitFor();
    expect((await adminApi<{ items: Attachment[] }>(`tickets/${ticket.id}/attachments`)).items.map((file) => file.id)).toEqual([mine.id]);

    const deleted = apiResponse(page, new RegExp(`^attachments/${mine.id}$`), 'DELETE');
    await deleteButton.click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    expect((await deleted).status()).toBe(204);
    await toast(page, 'success', 'File deleted').waitFor();
    await drawer(page).getByText('No files yet.').waitFor();
  });

  it.each(['light', 'dark'])('asks before deleting a file at phone width (%s)', async (theme) => {
    const ticket = await makeTicket();
    const file = await adminAttach(ticket.id, new TextEncoder().encode('notes'), `notes-${uniqueTag()}.txt`);
    const page = await chrome.open(PHONE);
    await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [THEME_STORAGE_KEY, theme] as const);
    await openTicket(page, ticket.id);
    await files(page).filter({ hasText: file.name }).getByRole('button', { name: `Delete ${file.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${file.name}?` });
    await confirm.getByRole('button', { name: 'Cancel' }).waitFor();
    await settled(confirm);
    await screenshot(page, `attachments-delete-confirm-phone-${theme}`);
  });
});
