import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { Attachment } from '../../src/shared/schemas/attachments';
import type { Ticket, TicketComment, TicketWatchers } from '../../src/shared/types';
import {
  POLL,
  TINY_PNG,
  VIEWPORTS,
  adminApi,
  adminAttach,
  adminSession,
  apiAs,
  apiResponse,
  browserPerFile,
  drawer,
  liveHello,
  makeAccount,
  screenshot,
  sessionFor,
  settled,
  toast,
  uniqueTag,
  watchErrors,
} from './fixtures';

// What a ticket's drawer offers beyond its form: Watch / Unwatch, a preview of images and PDFs
// with Download beside it, and a screenshot pasted into a comment being written going with it.
const chrome = browserPerFile();
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const axeClean = async (page: Page, selector: string) => {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).include(selector).analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
};

const colleague = async () => {
  const account = await makeAccount('staff', 'Casey');
  const { token } = await sessionFor(account);
  return { ...account, call: apiAs(token), name: `${account.firstName} ${account.surname}` };
};

const openTicket = async (page: Page, id: number) => {
  const listed = apiResponse(page, new RegExp(`^tickets/${id}/attachments$`));
  await page.goto(`/tickets/?id=${id}`);
  await listed;
  await settled(drawer(page));
};

/** A one-page PDF: enough for the server's sniffing (`%PDF-`) and the browser's viewer. */
const TINY_PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** Runs in the page: a File made there, so DataTransfer and ClipboardEvent can carry it. */
const pngInPage = (bytes: number[], name: string) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

/** The name a screenshot taken now gets, by the page's clock. */
const screenshotNameNow = (page: Page) =>
  page.evaluate(() => {
    const now = new Date();
    const two = (n: number) => String(n).padStart(2, '0');
    return `Screenshot ${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())} ${two(now.getHours())}.${two(now.getMinutes())}`;
  });

describe('watching a ticket', () => {
  it('Watch and Unwatch change who is told, and a status notice says the new status', async () => {
    const casey = await colleague();
    const ticket = (await casey.call<Ticket>('tickets', { method: 'POST', body: { title: `Watch ${uniqueTag()}` } })).body;
    const { userId } = await adminSession();
    const page = await chrome.open();
    const hello = liveHello(page);
    await openTicket(page, ticket.id);
    await hello;
    const button = drawer(page).getByTestId('watch-button');
    const watchers = drawer(page).getByTestId('watchers');
    await expect.poll(() => button.textContent(), POLL).toBe('Watch');
    expect(await watchers.textContent()).toBe(`Watched by ${casey.name}`);

    const put = apiResponse(page, new RegExp(`^tickets/${ticket.id}/watchers/me$`), 'PUT');
    await button.click();
    expect((await put).status()).toBe(204);
    await toast(page, 'success', `Watching #${ticket.id}`).waitFor();
    await expect.poll(() => button.textContent(), POLL).toBe('Unwatch');
    await expect.poll(() => watchers.textContent(), POLL).toContain('Demo Admin');
    expect((await adminApi<TicketWatchers>(`tickets/${ticket.id}/watchers`)).items.map((item) => item.userId)).toContain(userId);

    // A watcher hears of a status change, and the bell says where the ticket went.
    await casey.call(`tickets/${ticket.id}`, { method: 'PATCH', body: { status: 'resolved' } });
    await page.getByTestId('bell').click();
    await expect.poll(() => page.getByTestId('notification').filter({ hasText: `#${ticket.id}` }).first().textContent(), POLL).toContain(`${ticket.title} (now Resolved)`);
    await page.keyboard.press('Escape');

    const del = apiResponse(page, new RegExp(`^tickets/${ticket.id}/watchers/me$`), 'DELETE');
    await button.click();
    expect((await del).status()).toBe(204);
    await expect.poll(() => button.textContent(), POLL).toBe('Watch');
    expect((await adminApi<TicketWatchers>(`tickets/${ticket.id}/watchers`)).watching).toBe(false);
  });
});

describe('previews', () => {
  it('an image opens in a dialog with Download beside it; Download saves it under its name', async () => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Preview ${uniqueTag()}` } });
    const image = await adminAttach(ticket.id, TINY_PNG, `photo-${uniqueTag()}.png`);
    const page = await chrome.open();
    await openTicket(page, ticket.id);
    await drawer(page).getByRole('button', { name: image.name, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: image.name });
    const picture = dialog.getByRole('img', { name: image.name });
    await picture.waitFor();
    // From an object URL fetched with the token: no address carries it.
    expect(await picture.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), POLL).toBe(2);
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    expect((await downloading).suggestedFilename()).toBe(image.name);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    // The drawer is still open under it.
    expect(await drawer(page).getByRole('button', { name: image.name, exact: true }).isVisible()).toBe(true);
  });

  it('a PDF opens in a frame of the page, which the CSP allows; other files download at once', async () => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Preview ${uniqueTag()}` } });
    const pdf = await adminAttach(ticket.id, TINY_PDF, `report-${uniqueTag()}.pdf`);
    const text = await adminAttach(ticket.id, new TextEncoder().encode('notes'), `notes-${uniqueTag()}.txt`);
    const page = await chrome.open();
    const errors = watchErrors(page);
    await openTicket(page, ticket.id);
    await drawer(page).getByRole('button', { name: pdf.name, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: pdf.name });
    const frame = dialog.locator(`iframe[title="${pdf.name}"]`);
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toMatch(/^blob:/);
    await settled(dialog);
    expect(errors.consoleErrors.filter((message) => /Content Security Policy/i.test(message))).toEqual([]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    const downloading = page.waitForEvent('download');
    await drawer(page).getByRole('button', { name: text.name, exact: true }).click();
    expect((await downloading).suggestedFilename()).toBe(text.name);
    expect(await page.getByRole('dialog').count()).toBe(1);
  });
});

describe('a screenshot pasted into a comment being written', () => {
  it('waits beside the comment, named by the time, and is uploaded as that comment’s file', async () => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Paste ${uniqueTag()}` } });
    const page = await chrome.open();
    await openTicket(page, ticket.id);
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/tickets/${ticket.id}/attachments`)) posts += 1;
    });
    const box = drawer(page).getByRole('textbox', { name: 'New comment' });
    await box.fill('See the screenshot');
    const before = await screenshotNameNow(page);
    await box.evaluate(
      (element, [bytes, make]) => {
        const paste = new DataTransfer();
        paste.items.add(new Function(`return (${make})`)()(bytes, 'image.png') as File);
        element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: paste, bubbles: true, cancelable: true }));
        // A second one dropped in the same minute is told apart.
        const drop = new DataTransfer();
        drop.items.add(new Function(`return (${make})`)()(bytes, 'image.png') as File);
        element.dispatchEvent(new DragEvent('drop', { dataTransfer: drop, bubbles: true, cancelable: true }));
      },
      [Array.from(TINY_PNG), pngInPage.toString()] as const,
    );
    const after = await screenshotNameNow(page);
    const waiting = drawer(page).getByRole('list', { name: 'Files for the new comment' }).getByRole('listitem');
    await expect.poll(() => waiting.count(), POLL).toBe(2);
    const names = (await waiting.allTextContents()).map((line) => line.replace(/\d+ bytesRemove$/, '').trim());
    const stamp = names[0]?.startsWith(after) ? after : before;
    expect(names).toEqual([`${stamp}.png`, `${stamp} (2).png`]);
    // Nothing went to the ticket on its own: the text stayed as typed, and no file was sent yet.
    expect(await box.inputValue()).toBe('See the screenshot');
    expect(posts).toBe(0);
    await screenshot(page, 'comment-paste-waiting-desktop');

    // One can be taken back before the comment goes.
    await waiting.nth(1).getByRole('button', { name: `Remove ${stamp} (2).png` }).click();
    await expect.poll(() => waiting.count(), POLL).toBe(1);

    const added = apiResponse(page, new RegExp(`^tickets/${ticket.id}/comments$`), 'POST');
    const uploaded = apiResponse(page, new RegExp(`^tickets/${ticket.id}/attachments$`), 'POST');
    await drawer(page).getByRole('button', { name: 'Add comment' }).click();
    const comment = (await (await added).json()) as TicketComment;
    const file = (await (await uploaded).json()) as Attachment;
    expect(file).toMatchObject({ name: `${stamp}.png`, commentId: comment.id, contentType: 'image/png' });
    await drawer(page).getByRole('list', { name: /^Files of Demo Admin's comment/ }).getByRole('img', { name: `${stamp}.png` }).waitFor();
    await expect.poll(() => waiting.count(), POLL).toBe(0);
    expect(posts).toBe(1);
  });

  it('text pasted into the comment box stays text', async () => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Paste ${uniqueTag()}` } });
    const page = await chrome.open();
    await openTicket(page, ticket.id);
    const box = drawer(page).getByRole('textbox', { name: 'New comment' });
    await box.focus();
    const kept = await box.evaluate((element) => {
      const data = new DataTransfer();
      data.setData('text/plain', 'copied words');
      return element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    // Not cancelled: the browser's own paste goes ahead.
    expect(kept).toBe(true);
    expect(await drawer(page).getByRole('list', { name: 'Files for the new comment' }).count()).toBe(0);
  });
});

describe.each(['light', 'dark'] as const)('how they look, %s theme', (theme) => {
  it.each(VIEWPORTS)('$name', async ({ name, viewport }) => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Looks ${uniqueTag()}` } });
    const image = await adminAttach(ticket.id, TINY_PNG, `photo-${uniqueTag()}.png`);
    const page = await chrome.open(viewport, { context: { reducedMotion: 'reduce' } });
    await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [THEME_STORAGE_KEY, theme] as const);
    await openTicket(page, ticket.id);
    await expect.poll(() => drawer(page).getByTestId('watch-button').textContent(), POLL).toBe('Unwatch');
    await axeClean(page, '[data-testid="watch-button"]');
    await screenshot(page, `ticket-watch-${theme}-${name}`);

    const box = drawer(page).getByRole('textbox', { name: 'New comment' });
    await box.fill('With a screenshot');
    await box.evaluate(
      (element, [bytes, make]) => {
        const paste = new DataTransfer();
        paste.items.add(new Function(`return (${make})`)()(bytes, 'image.png') as File);
        element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: paste, bubbles: true, cancelable: true }));
      },
      [Array.from(TINY_PNG), pngInPage.toString()] as const,
    );
    const waiting = drawer(page).getByRole('list', { name: 'Files for the new comment' });
    await waiting.waitFor();
    await waiting.scrollIntoViewIfNeeded();
    await axeClean(page, '[aria-label="Files for the new comment"]');
    await screenshot(page, `comment-paste-${theme}-${name}`);

    await drawer(page).getByRole('button', { name: image.name, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: image.name });
    await dialog.getByRole('img', { name: image.name }).waitFor();
    await settled(dialog);
    await axeClean(page, '.mantine-Modal-content');
    await screenshot(page, `attachment-preview-${theme}-${name}`);
  });
});
