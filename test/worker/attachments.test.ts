import { applyD1Migrations, createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENTS_PER_TICKET, ATTACHMENT_MAX_BYTES, type Attachment } from '../../src/shared/schemas/attachments';
import type { AuditEntry, BackupResult, Page } from '../../src/shared/types';
import { missingAttachmentObjects } from '../../src/worker/provider/db/attachment-objects';
import { workerdSha256 } from '../../src/worker/provider/db/backup/format';
import { restoreBackup } from '../../src/worker/provider/db/backup/restore';
import { d1Target } from '../../src/worker/provider/db/backup/restore-target';
import { DATA_TABLES } from '../../src/worker/provider/db/tables';
import { createApp } from '../../src/worker/index';
import { provider } from '../../src/worker/provider';
import { r2Source, readBackup, rowsIn } from './backup-files';
import { lazyBody, trickle } from './slow-body';
import { api, expectError, readJson, signedIn, type ErrorJson } from './support';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const text = (value: string) => new TextEncoder().encode(value);

let admin: string;
let staff: { token: string; user: { id: number } };
let colleague: string;

const newTicket = async (title = 'Screenshot attached') => {
  const res = await api('tickets', { method: 'POST', token: admin, json: { title } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
};

const form = (file: Uint8Array | string | null, name = 'shot.png', type = 'image/png', extra: Record<string, string> = {}) => {
  const data = new FormData();
  if (file !== null) data.set('file', new File([file], name, { type }));
  for (const [key, value] of Object.entries(extra)) data.set(key, value);
  return data;
};

const upload = (ticketId: number, token: string, body: BodyInit, headers?: HeadersInit) =>
  api(`tickets/${ticketId}/attachments`, { method: 'POST', token, body, headers });

const uploaded = async (ticketId: number, token: string, data: FormData) => {
  const res = await readJson<Attachment>(await upload(ticketId, token, data));
  expect(res.status, res.text).toBe(201);
  return res.body;
};

const objectsOf = async (ticketId: number) => (await env.FILES.list({ prefix: `attachments/${ticketId}/` })).objects.length;

const sha256 = async (bytes: Uint8Array) =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

const history = async (ticketId: number) =>
  (await readJson<Page<AuditEntry>>(await api(`audit?entity=ticket&entityId=${ticketId}`, { token: admin }))).body.items;

beforeAll(async () => {
  ({ token: admin } = await signedIn('admin'));
  staff = await signedIn('staff');
  ({ token: colleague } = await signedIn('staff'));
});

describe('uploading', () => {
  it('stores the file in FILES, answers the attachment and lists it with its uploader', async () => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(PNG));
    expect(file).toMatchObject({ ticketId, commentId: null, name: 'shot.png', bytes: PNG.length, contentType: 'image/png', sha256: await sha256(PNG), uploadedBy: staff.user.id });
    expect(file.uploadedByName).toMatch(/^Test User\d+$/);
    expect(Date.parse(file.at)).not.toBeNaN();
    const { body } = await readJson<{ items: Attachment[] }>(await api(`tickets/${ticketId}/attachments`, { token: colleague }));
    expect(body.items).toEqual([file]);
    const [object] = (await env.FILES.list({ prefix: `attachments/${ticketId}/` })).objects;
    expect(object?.key).toMatch(new RegExp(`^attachments/${ticketId}/[0-9a-f-]{36}$`));
    expect(object?.size).toBe(PNG.length);
  });

  it('attaches to a comment of the same ticket, and refuses one of another ticket', async () => {
    const ticketId = await newTicket();
    const comment = (await readJson<{ id: number }>(await api(`tickets/${ticketId}/comments`, { method: 'POST', token: admin, json: { body: 'See the file' } }))).body;
    expect((await uploaded(ticketId, staff.token, form(PNG, 'a.png', 'image/png', { commentId: String(comment.id) }))).commentId).toBe(comment.id);
    const elsewhere = await newTicket();
    const refused = await readJson<ErrorJson>(await upload(elsewhere, staff.token, form(PNG, 'a.png', 'image/png', { commentId: String(comment.id) })));
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.commentId).toEqual(['That comment is not on this ticket']);
    const bad = await readJson<ErrorJson>(await upload(elsewhere, staff.token, form(PNG, 'a.png', 'image/png', { commentId: 'abc' })));
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.commentId).toBeDefined();
    expect(await objectsOf(elsewhere)).toBe(0);
  });

  it('streams a file of several R2 parts and keeps its SHA-256', async () => {
    const ticketId = await newTicket();
    const bytes = new Uint8Array(11 * 1024 * 1024 + 5).map((_, i) => (i * 7) % 251);
    const file = await uploaded(ticketId, staff.token, form(bytes, 'dump.bin', 'application/octet-stream'));
    expect(file).toMatchObject({ bytes: bytes.length, sha256: await sha256(bytes), contentType: 'application/octet-stream' });
    const stored = await env.FILES.get((await env.FILES.list({ prefix: `attachments/${ticketId}/` })).objects[0]?.key ?? '');
    expect(await sha256(new Uint8Array(await stored!.arrayBuffer()))).toBe(file.sha256);
  });

  it('answers 413 for a file over 25 MiB, by its length or by its bytes, and keeps nothing', async () => {
    const ticketId = await newTicket();
    const big = new Uint8Array(ATTACHMENT_MAX_BYTES + 1);
    const declared = await readJson<ErrorJson>(await upload(ticketId, staff.token, form(big, 'big.bin')));
    expect(declared.status).toBe(413);
    expect(declared.body.message).toBe('The file is larger than 25 MiB');
    // Without a length the bytes are counted as they arrive.
    const body = new Response(form(big, 'big.bin'));
    const streamed = await upload(ticketId, staff.token, body.body!, { 'content-type': body.headers.get('content-type')! });
    expect(streamed.status).toBe(413);
    expect(await objectsOf(ticketId)).toBe(0);
    expect((await history(ticketId)).filter((e) => e.action === 'attach')).toEqual([]);
  });

  it('answers 409 for the 101st file, even when uploads race for the last place', async () => {
    const ticketId = await newTicket();
    for (let i = 0; i < ATTACHMENTS_PER_TICKET - 1; i++) {
      await env.DB.prepare("INSERT INTO attachments (ticket_id, key, name, bytes, content_type, sha256, user_id) VALUES (?1, ?2, 'x', 1, 'text/plain', ?3, ?4)")
        .bind(ticketId, `attachments/${ticketId}/seeded-${i}`, 'a'.repeat(64), staff.user.id)
        .run();
    }
    const raced = await Promise.all([1, 2, 3].map(() => upload(ticketId, staff.token, form(text('hello')))));
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const conflict = (await raced.find((r) => r.status === 409)!.json()) as { status: number; detail: string };
    expect(conflict).toMatchObject({ status: 409, detail: `A ticket holds at most ${ATTACHMENTS_PER_TICKET} files; delete one first` });
    expect(await objectsOf(ticketId)).toBe(1);
    expect((await readJson<ErrorJson>(await upload(ticketId, staff.token, form(text('more'))))).status).toBe(409);
  });

  it.each([
    ['no multipart body', () => ({ body: JSON.stringify({ file: 'x' }), headers: { 'content-type': 'application/json' } }), 'file'],
    ['no file field', () => ({ body: form(null, 'x', 'x', { commentId: '1' }) }), 'file'],
    ['an empty file', () => ({ body: form(new Uint8Array(0)) }), 'file'],
    ['an unknown field', () => ({ body: form(PNG, 'a.png', 'image/png', { other: 'x' }) }), 'body'],
    [
      'a body cut short',
      () => ({ body: '--b\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello', headers: { 'content-type': 'multipart/form-data; boundary=b' } }),
      'file',
    ],
  ])('answers 400 with a field error for %s and stores nothing', async (_, make, field) => {
    const ticketId = await newTicket();
    const { body, headers } = make() as { body: BodyInit; headers?: HeadersInit };
    const res = await readJson<ErrorJson>(await upload(ticketId, staff.token, body, headers));
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors?.[field]?.length).toBeGreaterThan(0);
    expect(await objectsOf(ticketId)).toBe(0);
  });

  it('answers 404 for a ticket that does not exist, 400 for a malformed id, 401 without a token', async () => {
    expect((await upload(99_999_999, staff.token, form(PNG))).status).toBe(404);
    expect((await upload(0, staff.token, form(PNG))).status).toBe(400);
    const ticketId = await newTicket();
    expect((await api(`tickets/${ticketId}/attachments`, { method: 'POST', body: form(PNG) })).status).toBe(401);
    expect((await api(`tickets/99999999/attachments`, { token: staff.token })).status).toBe(404);
    expect(await objectsOf(ticketId)).toBe(0);
  });

  it('keeps only the base name, NFC and trimmed as typed text is', async () => {
    const ticketId = await newTicket();
    expect((await uploaded(ticketId, staff.token, form(text('x'), '..\\..\\etc/ Cafe\u0301.txt\u200b'))).name).toBe('Caf\u00e9.txt');
  });

  it('refuses a name with a direction override or a control character, as typed text is, and stores nothing', async () => {
    const ticketId = await newTicket();
    for (const [name, message] of [
      ['invoice\u202Efdp.exe', 'Must not contain text direction control characters'],
      ['isolated\u2067.txt', 'Must not contain text direction control characters'],
      ['pass\u0007wd.txt', 'Contains characters that are not allowed'],
    ]) {
      const error = await expectError(await upload(ticketId, staff.token, form(text('x'), name)), 400);
      expect(error.errors).toEqual({ file: [message] });
    }
    expect(await objectsOf(ticketId)).toBe(0);
  });
});

describe('an upload on a slow or broken line', () => {
  // The Worker with a short timeout in front of the embedded provider.
  const TIMEOUT_MS = 300;
  const app = createApp({ timeoutMs: TIMEOUT_MS, log: () => {} });

  /** Sends `body` as the upload, then waits for whatever the provider still does after the answer. */
  const send = async (ticketId: number, body: BodyInit, headers: Record<string, string>) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`https://app.test/api/v1/tickets/${ticketId}/attachments`, { method: 'POST', headers: { authorization: `Bearer ${staff.token}`, ...headers }, body }),
      env,
      ctx,
    );
    const read = await readJson<ErrorJson & Partial<Attachment>>(res);
    await waitOnExecutionContext(ctx);
    return read;
  };

  /** The form a browser sends for `bytes`, as bytes, with its content type. */
  const encoded = async (bytes: Uint8Array) => {
    const res = new Response(form(bytes, 'slow.bin', 'application/octet-stream'));
    return { bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' };
  };

  const rowsOf = async (ticketId: number) => (await env.DB.prepare('SELECT count(*) AS n FROM attachments WHERE ticket_id = ?1').bind(ticketId).first<{ n: number }>())?.n;

  it('is stored when it takes longer than the timeout to arrive, but each piece comes in time', async () => {
    const ticketId = await newTicket();
    const file = new Uint8Array(200 * 1024).map((_, i) => i % 251);
    const { bytes, type } = await encoded(file);
    const body = trickle(bytes, 8, TIMEOUT_MS / 3);
    const res = await send(ticketId, body, { 'content-type': type });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ bytes: file.length, sha256: await sha256(file) });
    expect(body.sent.whole).toBe(true);
    expect(await objectsOf(ticketId)).toBe(1);
  });

  it('answers 413 by its declared length before reading the body', async () => {
    const ticketId = await newTicket();
    const declared = ATTACHMENT_MAX_BYTES + 1024 * 1024;
    const body = lazyBody(declared);
    const res = await send(ticketId, body, { 'content-type': 'multipart/form-data; boundary=b', 'content-length': String(declared) });
    expect(res.status, res.text).toBe(413);
    expect(res.body.message).toBe('The file is larger than 25 MiB');
    // At most what the streams between the client and the provider hold, never the body.
    expect(body.state.pulled).toBeLessThan(4 * 1024 * 1024);
    expect(await objectsOf(ticketId)).toBe(0);
  });

  it.each([
    ['in its first R2 part', 2, 0],
    ['after several R2 parts', 7, 0],
    // Only the form's closing `--` and CRLF are missing: the file is whole and stored first.
    ['after the file, before the form ends', 10, 4],
  ])('keeps no object and no row when the body breaks off %s', async (_, breakAfter, withheld) => {
    const ticketId = await newTicket();
    // 12 MiB in ten pieces: parts of 5 MiB go to R2 as they fill.
    const { bytes, type } = await encoded(new Uint8Array(12 * 1024 * 1024).fill(0x63));
    const res = await send(ticketId, trickle(bytes.subarray(0, bytes.length - withheld), 10, 0, { breakAfter }), { 'content-type': type });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors?.file).toEqual(['The upload was cut short or malformed']);
    expect(await objectsOf(ticketId)).toBe(0);
    expect(await rowsOf(ticketId)).toBe(0);
  });

  it('keeps no object and no row when the Worker stopped waiting while the provider read the body', async () => {
    const ticketId = await newTicket();
    const { bytes, type } = await encoded(text('arrived too late'));
    const worker = new AbortController();
    // The whole form in one piece, and the Worker's 504 sent as it is read.
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          controller.enqueue(bytes);
          controller.close();
          worker.abort();
        },
      },
      { highWaterMark: 0 },
    );
    const request = new Request(`https://provider.internal/v1/tickets/${ticketId}/attachments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${staff.token}`, 'content-type': type },
      body,
      signal: worker.signal,
    });
    const res = await readJson<ErrorJson>(await provider.fetch(request, env, createExecutionContext()));
    expect(res.status, res.text).toBe(503);
    expect(await objectsOf(ticketId)).toBe(0);
    expect(await rowsOf(ticketId)).toBe(0);
  });

  it('keeps no object and no row when the body stops arriving and the Worker gives up with 504', async () => {
    const ticketId = await newTicket();
    const { bytes, type } = await encoded(new Uint8Array(6 * 1024 * 1024).fill(0x64));
    const body = trickle(bytes, 4, TIMEOUT_MS * 4);
    const res = await send(ticketId, body, { 'content-type': type });
    expect(res.status).toBe(504);
    // The provider stops reading it rather than storing it after the person was told it failed.
    expect(await body.sent.settled).toBe('given up');
    expect(await objectsOf(ticketId)).toBe(0);
    expect(await rowsOf(ticketId)).toBe(0);
  });
});

describe('serving', () => {
  const content = (id: number, token?: string) => api(`attachments/${id}/content`, { token });

  it('decides the type from the bytes: an HTML page named .png is a text download in a sandbox', async () => {
    const ticketId = await newTicket();
    const page = text('<html><script>alert(document.cookie)</script></html>');
    const file = await uploaded(ticketId, staff.token, form(page, 'cat.png', 'image/png'));
    expect(file.contentType).toBe('text/plain; charset=utf-8');
    const res = await content(file.id, colleague);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="cat.png"; filename*=UTF-8''cat.png`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox;/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(page);
  });

  it.each([
    ['an SVG with a script', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml', 'text/plain; charset=utf-8'],
    ['a PDF', text('%PDF-1.7\n%\u00e2\u00e3'), 'text/html', 'application/pdf'],
    ['binary bytes', new Uint8Array([0, 1, 2, 3, 255]), 'text/html', 'application/octet-stream'],
  ])('serves %s as a download whatever the browser claimed', async (_, bytes, claimed, type) => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(bytes, 'f', claimed));
    expect(file.contentType).toBe(type);
    const res = await content(file.id, staff.token);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
  });

  it.each([
    ['image/jpeg', [0xff, 0xd8, 0xff, 0xe0, 0, 16]],
    ['image/gif', [...text('GIF89a'), 1, 0, 1, 0]],
    ['image/webp', [...text('RIFF'), 0, 0, 0, 0, ...text('WEBPVP8 ')]],
  ])('serves %s, known by its first bytes, inline', async (type, bytes) => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(new Uint8Array(bytes), 'picture.bin', 'application/octet-stream'));
    expect(file.contentType).toBe(type);
    expect((await content(file.id, staff.token)).headers.get('content-disposition')).toMatch(/^inline;/);
  });

  it('shows an image inline, and names a non-ASCII file exactly in filename*', async () => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(PNG, 'Écran "1".png', 'application/octet-stream'));
    const res = await content(file.id, staff.token);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="_cran _1_.png"; filename*=UTF-8''%C3%89cran%20%221%22.png`);
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox;/);
  });

  it('never takes a token from the address', async () => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(PNG));
    expect((await content(file.id)).status).toBe(401);
    expect((await api(`attachments/${file.id}/content?token=${staff.token}`)).status).toBe(401);
    expect((await api(`attachments/${file.id}/content?access_token=${staff.token}`)).status).toBe(401);
  });

  it('answers 404 for an unknown attachment and 400 for a malformed id', async () => {
    expect((await content(99_999_999, staff.token)).status).toBe(404);
    expect((await api('attachments/abc/content', { token: staff.token })).status).toBe(400);
  });
});

describe('deleting', () => {
  it('lets the uploader delete their file, with a detach entry, and removes the object', async () => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(PNG));
    expect((await api(`attachments/${file.id}`, { method: 'DELETE', token: staff.token })).status).toBe(204);
    expect(await objectsOf(ticketId)).toBe(0);
    expect((await api(`attachments/${file.id}/content`, { token: staff.token })).status).toBe(404);
    const entries = await history(ticketId);
    expect(entries.find((e) => e.action === 'detach')).toMatchObject({ entity: 'ticket', entityId: ticketId, actorId: staff.user.id, changes: { name: ['shot.png', null], sha256: [file.sha256, null] } });
    expect(entries.find((e) => e.action === 'attach')).toMatchObject({ entityId: ticketId, changes: { name: [null, 'shot.png'], bytes: [null, PNG.length], contentType: [null, 'image/png'] } });
  });

  it("refuses other people's files (403) and leaves them and the log alone; an admin may delete them", async () => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(PNG));
    const refused = await readJson<ErrorJson>(await api(`attachments/${file.id}`, { method: 'DELETE', token: colleague }));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('You can only delete files you uploaded');
    expect(await objectsOf(ticketId)).toBe(1);
    expect((await history(ticketId)).filter((e) => e.action === 'detach')).toEqual([]);
    expect((await api(`attachments/${file.id}`, { method: 'DELETE', token: admin })).status).toBe(204);
    expect(await objectsOf(ticketId)).toBe(0);
  });

  it('deletes once when two deletes race, with one detach entry', async () => {
    const ticketId = await newTicket();
    const file = await uploaded(ticketId, staff.token, form(PNG));
    const statuses = (await Promise.all([staff.token, admin].map((token) => api(`attachments/${file.id}`, { method: 'DELETE', token })))).map((r) => r.status);
    expect(statuses.sort()).toEqual([204, 404]);
    expect((await history(ticketId)).filter((e) => e.action === 'detach')).toHaveLength(1);
  });

  it('answers 404 for an unknown attachment', async () => {
    expect((await api('attachments/99999999', { method: 'DELETE', token: admin })).status).toBe(404);
  });
});

describe('backups and restores', () => {
  it('lists every attachment with its key and SHA-256 in a backup, and a restore names the files the bucket lacks', async () => {
    const ticketId = await newTicket();
    const kept = await uploaded(ticketId, staff.token, form(PNG));
    const lost = await uploaded(ticketId, staff.token, form(text('gone'), 'gone.txt'));
    const backup = await readJson<BackupResult>(await api('settings/backup-db', { method: 'POST', token: admin }));
    expect(backup.status).toBe(201);
    const rows = rowsIn(await readBackup(backup.body.key), 'attachments');
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    expect(byId.get(kept.id)).toMatchObject({ key: expect.stringMatching(`^attachments/${ticketId}/`), sha256: kept.sha256 });
    expect(byId.get(lost.id)).toMatchObject({ sha256: lost.sha256 });
    const total = (await env.DB.prepare('SELECT count(*) AS n FROM attachments').first<{ n: number }>())?.n;
    expect(rows).toHaveLength(total ?? -1);

    await applyD1Migrations(env.RESTORE_DB, env.TEST_MIGRATIONS);
    for (const table of [...DATA_TABLES].reverse()) await env.RESTORE_DB.prepare(`DELETE FROM ${table}`).run();
    await restoreBackup(d1Target(env.RESTORE_DB), r2Source(backup.body.key), { sha256: workerdSha256 });
    await env.FILES.delete(String(byId.get(lost.id)?.key));
    const report = await missingAttachmentObjects(env.RESTORE_DB, env.FILES);
    expect(report.checked).toBe(total);
    // Earlier tests leave rows without files (the 409 test seeds them straight into D1).
    expect(report.missing.filter((file) => file.ticketId === ticketId)).toEqual([{ id: lost.id, ticketId, key: byId.get(lost.id)?.key, sha256: lost.sha256 }]);
  });
});
