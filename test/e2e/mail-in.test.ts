import { describe, expect, it } from 'vitest';
import type { Page as ListPage, Ticket } from '../../src/shared/types';
import { ADMIN_EMAIL, adminApi, baseUrl, uniqueTag } from './fixtures';

// Mail in as a developer tries it under `npm start`: a raw message POSTed to Miniflare's
// /cdn-cgi/handler/email route reaches the Worker's email() handler, with no network.
const deliver = (from: string, to: string, raw: string) =>
  fetch(`${baseUrl()}/cdn-cgi/handler/email?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, { method: 'POST', body: raw.replace(/\r?\n/g, '\r\n') });

const message = (from: string, subject: string, body: string) => `From: ${from}
To: support@localhost.test
Subject: ${subject}
Message-ID: <${uniqueTag()}@localhost.test>
Date: ${new Date().toUTCString()}
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

${body}
`;

describe('mail to the local app', () => {
  it('a mail from a team member to the inbox becomes their ticket', async () => {
    const subject = `Printer by mail ${uniqueTag()}`;
    const res = await deliver(ADMIN_EMAIL, 'support@localhost.test', message(ADMIN_EMAIL, subject, 'Tray 2 jams.'));
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    const found = await adminApi<ListPage<Ticket>>(`tickets?q=${encodeURIComponent(`"${subject}"`)}`);
    expect(found.items).toMatchObject([{ title: subject, description: 'Tray 2 jams.', reporterName: expect.any(String) }]);
  });

  it('a mail from a stranger is refused and makes no ticket', async () => {
    const subject = `Stranger ${uniqueTag()}`;
    const res = await deliver('stranger@elsewhere.test', 'support@localhost.test', message('stranger@elsewhere.test', subject, 'Hello'));
    expect(await res.text()).toContain('Unknown sender');
    const found = await adminApi<ListPage<Ticket>>(`tickets?q=${encodeURIComponent(`"${subject}"`)}`);
    expect(found.items).toEqual([]);
  });
});
