import { describe, expect, it } from 'vitest';
import type { Page as ListPage, Ticket } from '../../src/shared/types';
import { ADMIN_EMAIL, adminApi, mailToApp, uniqueTag } from './fixtures';

// Mail in as a developer tries it under `npm start`: a raw message POSTed to Miniflare's
// /cdn-cgi/handler/email route reaches the Worker's email() handler, with no network.
const INBOX = 'support@localhost.test';
const send = (from: string, subject: string, body: string) => mailToApp(from, INBOX, `From: ${from}\nTo: ${INBOX}\nSubject: ${subject}`, body);

describe('mail to the local app', () => {
  it('a mail from a team member to the inbox becomes their ticket', async () => {
    const subject = `Printer by mail ${uniqueTag()}`;
    const res = await send(ADMIN_EMAIL, subject, 'Tray 2 jams.');
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    const found = await adminApi<ListPage<Ticket>>(`tickets?q=${encodeURIComponent(`"${subject}"`)}`);
    expect(found.items).toMatchObject([{ title: subject, description: 'Tray 2 jams.', reporterName: expect.any(String) }]);
  });

  it('a mail from a stranger is refused and makes no ticket', async () => {
    const subject = `Stranger ${uniqueTag()}`;
    const res = await send('stranger@elsewhere.test', subject, 'Hello');
    expect(await res.text()).toContain('Unknown sender');
    const found = await adminApi<ListPage<Ticket>>(`tickets?q=${encodeURIComponent(`"${subject}"`)}`);
    expect(found.items).toEqual([]);
  });
});
