import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import { DESKTOP, PHONE, location } from './fixtures';
import { POLL, adminApi, browserPerFile, choose, drawer, screenshot, settled, toast } from './fixtures';

// A toast never hides a control someone needs: with a drawer open, toasts start below its header.
const chrome = browserPerFile();

describe('toasts and an open drawer', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)("the drawer's close button takes a real click while a toast shows (%s)", async (name, viewport) => {
    const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Toast ${name} ${Date.now()}`, priority: 'normal' } });
    const page = await chrome.open(viewport);
    await page.goto(`/tickets/?id=${ticket.id}`);
    const panel = drawer(page);
    await settled(panel);
    await choose(page, panel.getByLabel('Priority'), 'Urgent');
    await panel.getByRole('button', { name: 'Save ticket' }).click();
    const saved = toast(page, 'success', 'Ticket saved');
    await saved.waitFor();
    await settled(saved);
    await screenshot(page, `toast-below-drawer-header-${name}`);

    const header = await panel.locator('.mantine-Drawer-header').boundingBox();
    const card = await saved.boundingBox();
    expect(header && card).toBeTruthy();
    expect(card?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));

    // No force: Playwright clicks only when the button itself would receive the click.
    expect(await saved.isVisible()).toBe(true);
    await panel.getByRole('button', { name: 'Close panel' }).click({ timeout: 3000 });
    await panel.waitFor({ state: 'hidden' });
    await expect.poll(() => location(page).params.get('id'), POLL).toBeNull();
    expect((await adminApi<Ticket>(`tickets/${ticket.id}`)).priority).toBe('urgent');
  });
});
