import { describe, expect, it } from 'vitest';
import { THEME_STORAGE_KEY } from '../../src/client/lib/constants';
import type { Ticket, TicketComment } from '../../src/shared/types';
import { DESKTOP, PHONE, adminApi, browserPerFile, drawer, expectText, makeAccount, screenshot, textOf, uniqueTag } from './fixtures';

const chrome = browserPerFile();

describe('mentions in a ticket', () => {
  it.each([
    ['desktop', 'light', DESKTOP],
    ['phone', 'dark', PHONE],
  ] as const)(
    "read as the person's current name in the comments and the History, never as markup (%s, %s)",
    async (name, theme, viewport) => {
      const chloe = await makeAccount('staff', 'Chloe');
      const now = `${chloe.firstName} ${chloe.surname}`;
      // Typed when Chloe was still "Chloe Carter"; she has been renamed since.
      const token = `@[Chloe Carter](user:${chloe.id})`;
      const ticket = await adminApi<Ticket>('tickets', { method: 'POST', body: { title: `Mentions ${uniqueTag()}`, description: `For ${token}` } });
      await adminApi<TicketComment>(`tickets/${ticket.id}/comments`, { method: 'POST', body: { body: `Over to ${token}, thanks` } });

      const page = await chrome.open(viewport);
      await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [THEME_STORAGE_KEY, theme] as const);
      await page.goto(`/tickets/?id=${ticket.id}`);
      const panel = drawer(page);
      await panel.locator('p', { hasText: 'Over to' }).waitFor();
      await expectText(panel.locator('p', { hasText: 'Over to' }), `Over to @${now}, thanks`);

      const history = panel.getByRole('list', { name: 'Changes, newest first' });
      const commented = history.getByRole('listitem').filter({ hasText: 'Commented' });
      await expectText(commented.getByTestId('change-list'), `Comment: Over to @${now}, thanks`);
      const created = history.getByRole('listitem').filter({ hasText: 'Created' });
      await expect.poll(() => textOf(created.getByTestId('change-list'))).toContain(`Description: For @${now}`);
      const all = await textOf(history);
      expect(all).not.toContain('(user:');
      expect(all).not.toContain('Chloe Carter');
      await commented.scrollIntoViewIfNeeded();
      await screenshot(page, `history-mentions-${name}-${theme}`);
    },
  );
});
