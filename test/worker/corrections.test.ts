import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Page, TicketComment, TimeEntry, TimesheetReport } from '../../src/shared/types';
import { api, expectConflict, expectError, readJson, signedIn, type TestUser } from './support';

// Corrections of comments and time entries (README "Corrections").

interface Person {
  user: TestUser;
  token: string;
}

let author: Person;
let colleague: Person;
let admin: Person;
let ticketId: number;

const DAY = '2026-03-04';

const post = async <T>(path: string, who: Person, json: unknown) => {
  const res = await api(path, { method: 'POST', token: who.token, json });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as T;
};
const patch = (path: string, who: Person, json: unknown, version?: number) =>
  api(path, { method: 'PATCH', token: who.token, json, headers: version === undefined ? {} : { 'if-match': `"${version}"` } });
const remove = (path: string, who: Person, version?: number) =>
  api(path, { method: 'DELETE', token: who.token, headers: version === undefined ? {} : { 'if-match': `"${version}"` } });

const history = async () =>
  (await readJson<Page<AuditEntry>>(await api(`audit?entity=ticket&entityId=${ticketId}&pageSize=100`, { token: admin.token }))).body.items;
const timesheet = async (userId: number) =>
  (await readJson<TimesheetReport>(await api(`reports/timesheet?from=${DAY}&to=${DAY}&userId=${userId}`, { token: admin.token }))).body.totals;

beforeAll(async () => {
  author = await signedIn('staff');
  colleague = await signedIn('staff');
  admin = await signedIn('admin');
  ticketId = (await post<{ id: number }>('tickets', author, { title: 'Corrections' })).id;
});

describe('comment corrections', () => {
  it('lets the author edit with If-Match, one version on, audited before → after', async () => {
    const comment = await post<TicketComment>(`tickets/${ticketId}/comments`, author, { body: 'Teh printer' });
    expect(comment.version).toBe(1);
    const res = await patch(`tickets/${ticketId}/comments/${comment.id}`, author, { body: 'The printer' }, 1);
    const { body, headers } = await readJson<TicketComment>(res);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ id: comment.id, body: 'The printer', version: 2 });
    expect(headers.get('etag')).toBe('"2"');
    const [entry] = (await history()).filter((e) => e.action === 'comment_edit');
    expect(entry).toMatchObject({ actorId: author.user.id, entity: 'ticket', entityId: ticketId, changes: { body: ['Teh printer', 'The printer'] } });
  });

  it('refuses a save from an older version with 412 and the current comment, changing nothing', async () => {
    const comment = await post<TicketComment>(`tickets/${ticketId}/comments`, author, { body: 'First' });
    expect((await patch(`tickets/${ticketId}/comments/${comment.id}`, author, { body: 'Second' }, 1)).status).toBe(200);
    const stale = await readJson<TicketComment>(await patch(`tickets/${ticketId}/comments/${comment.id}`, author, { body: 'Third' }, 1));
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ body: 'Second', version: 2 });
    expect((await remove(`tickets/${ticketId}/comments/${comment.id}`, author, 1)).status).toBe(412);
  });

  it("refuses someone else's comment with 403 and no entry, and lets an admin edit and delete it", async () => {
    const comment = await post<TicketComment>(`tickets/${ticketId}/comments`, author, { body: 'Mine' });
    const before = (await history()).length;
    const refused = await expectError(await patch(`tickets/${ticketId}/comments/${comment.id}`, colleague, { body: 'Yours now' }), 403);
    expect(refused.message).toBe("You need the admin role to edit or delete other people's comments and time");
    await expectError(await remove(`tickets/${ticketId}/comments/${comment.id}`, colleague), 403);
    expect((await history()).length).toBe(before);
    expect((await patch(`tickets/${ticketId}/comments/${comment.id}`, admin, { body: 'Moderated' })).status).toBe(200);
    expect((await remove(`tickets/${ticketId}/comments/${comment.id}`, admin, 2)).status).toBe(204);
    const comments = (await readJson<{ items: TicketComment[] }>(await api(`tickets/${ticketId}/comments`, { token: author.token }))).body.items;
    expect(comments.map((c) => c.id)).not.toContain(comment.id);
    const [deleted] = (await history()).filter((e) => e.action === 'comment_delete');
    expect(deleted).toMatchObject({ actorId: admin.user.id, changes: { body: ['Moderated', null] } });
  });

  it('answers bad input with 400 and unknown comments, or another ticket’s, with 404', async () => {
    const comment = await post<TicketComment>(`tickets/${ticketId}/comments`, author, { body: 'Kept' });
    const other = (await post<{ id: number }>('tickets', author, { title: 'Another' })).id;
    expect((await expectError(await patch(`tickets/${ticketId}/comments/${comment.id}`, author, { body: '   ' }), 400)).errors).toHaveProperty('body');
    await expectError(await patch(`tickets/${ticketId}/comments/${comment.id}`, author, { body: 'x', extra: 1 }), 400);
    await expectError(await patch(`tickets/${ticketId}/comments/abc`, author, { body: 'x' }), 400);
    await expectError(await api(`tickets/${ticketId}/comments/${comment.id}`, { method: 'PATCH', token: author.token, json: { body: 'x' }, headers: { 'if-match': 'soon' } }), 400);
    await expectError(await patch(`tickets/${other}/comments/${comment.id}`, author, { body: 'Moved' }), 404);
    await expectError(await remove(`tickets/${ticketId}/comments/99999999`, author), 404);
  });

  it('lets exactly one of two concurrent edits from the same version through', async () => {
    const comment = await post<TicketComment>(`tickets/${ticketId}/comments`, author, { body: 'Race' });
    const answers = await Promise.all(['One', 'Two'].map((body) => patch(`tickets/${ticketId}/comments/${comment.id}`, author, { body }, 1)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412]);
    expect((await history()).filter((e) => e.action === 'comment_edit' && JSON.stringify(e.changes).includes('"Race"'))).toHaveLength(1);
  });
});

describe('time corrections', () => {
  it('edits the minutes, audited, and the timesheet follows', async () => {
    const entry = await post<TimeEntry>(`tickets/${ticketId}/time-entries`, author, { workDate: DAY, minutes: 450 });
    expect((await timesheet(author.user.id)).minutes).toBe(450);
    const res = await readJson<TimeEntry>(await patch(`tickets/${ticketId}/time-entries/${entry.id}`, author, { minutes: 45, billable: false }, 1));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ minutes: 45, billable: false, workDate: DAY, version: 2 });
    expect(await timesheet(author.user.id)).toEqual({ minutes: 45, billableMinutes: 0 });
    const [edit] = (await history()).filter((e) => e.action === 'time_edit');
    expect(edit?.changes).toEqual({ minutes: [450, 45], billable: [true, false] });

    expect((await remove(`tickets/${ticketId}/time-entries/${entry.id}`, author, 2)).status).toBe(204);
    expect((await timesheet(author.user.id)).minutes).toBe(0);
    const [deleted] = (await history()).filter((e) => e.action === 'time_delete');
    expect(deleted?.changes).toMatchObject({ minutes: [45, null], workDate: [DAY, null] });
  });

  it('keeps the day at 24 hours or less inside the write: 409, nothing changed', async () => {
    const day = '2026-03-05';
    const a = await post<TimeEntry>(`tickets/${ticketId}/time-entries`, colleague, { workDate: day, minutes: 600 });
    await post<TimeEntry>(`tickets/${ticketId}/time-entries`, colleague, { workDate: day, minutes: 600 });
    const refused = await expectConflict(await patch(`tickets/${ticketId}/time-entries/${a.id}`, colleague, { minutes: 900 }));
    expect(refused.detail).toMatch(/more than 24 hours/);
    // Two raises sent at once, each fitting alone: the second sees the first inside its write.
    const b = await post<TimeEntry>(`tickets/${ticketId}/time-entries`, colleague, { workDate: '2026-03-06', minutes: 600 });
    const c = await post<TimeEntry>(`tickets/${ticketId}/time-entries`, colleague, { workDate: '2026-03-06', minutes: 600 });
    const both = await Promise.all([b, c].map((e) => patch(`tickets/${ticketId}/time-entries/${e.id}`, colleague, { minutes: 800 })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("refuses others' entries (403), stale versions (412) and bad input (400); an admin may correct anyone's", async () => {
    const entry = await post<TimeEntry>(`tickets/${ticketId}/time-entries`, author, { workDate: '2026-03-07', minutes: 30 });
    await expectError(await patch(`tickets/${ticketId}/time-entries/${entry.id}`, colleague, { minutes: 31 }), 403);
    await expectError(await remove(`tickets/${ticketId}/time-entries/${entry.id}`, colleague), 403);
    for (const body of [{ minutes: 0 }, { minutes: 1.5 }, { minutes: '30' }, { minutes: 1441 }, { workDate: '2026-02-30' }, { billable: 'yes' }, { userId: 1 }]) {
      const error = await expectError(await patch(`tickets/${ticketId}/time-entries/${entry.id}`, author, body), 400);
      expect(error.message).not.toBe('');
    }
    expect((await patch(`tickets/${ticketId}/time-entries/${entry.id}`, admin, { minutes: 35 }, 1)).status).toBe(200);
    const stale = await readJson<TimeEntry>(await patch(`tickets/${ticketId}/time-entries/${entry.id}`, author, { minutes: 40 }, 1));
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ minutes: 35, version: 2 });
    const row = await env.DB.prepare('SELECT minutes, version FROM time_entries WHERE id = ?1').bind(entry.id).first();
    expect(row).toEqual({ minutes: 35, version: 2 });
  });
});
