import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_SETTINGS, type MailLogDetail, type MailLogEntry, type NotificationSettings } from '../../src/shared/mail';
import type { Page } from '../../src/shared/types';
import { api, expectError, readJson, signedIn } from './support';

describe('notification settings', () => {
  it('answers the defaults before anything is saved', async () => {
    const { token } = await signedIn('staff');
    const res = await api('users/me/notification-settings', { token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('saves every kind for the caller only, with an audit entry of what changed', async () => {
    const me = await signedIn('staff');
    const other = await signedIn('staff');
    const wanted: NotificationSettings = { assigned: 'daily', mentioned: 'instant', commented: 'off', status: 'instant' };
    const put = await api('users/me/notification-settings', { method: 'PUT', token: me.token, json: wanted });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual(wanted);
    expect((await readJson(await api('users/me/notification-settings', { token: me.token }))).body).toEqual(wanted);
    expect((await readJson(await api('users/me/notification-settings', { token: other.token }))).body).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    const entry = await env.DB.prepare("SELECT changes FROM audit_log WHERE entity = 'user' AND entity_id = ?1 AND action = 'update' ORDER BY id DESC").bind(me.user.id).first<{ changes: string }>();
    expect(JSON.parse(entry?.changes ?? '{}')).toEqual({ 'notify.assigned': ['instant', 'daily'], 'notify.commented': ['daily', 'off'], 'notify.status': ['daily', 'instant'] });
  });

  it('refuses an unknown delivery, a missing kind and an unknown field with messages', async () => {
    const { token } = await signedIn('staff');
    const bad = await expectError(await api('users/me/notification-settings', { method: 'PUT', token, json: { ...DEFAULT_NOTIFICATION_SETTINGS, assigned: 'weekly' } }), 400);
    expect(JSON.stringify(bad)).toContain('Must be one of instant, daily, off');
    const missing = await expectError(await api('users/me/notification-settings', { method: 'PUT', token, json: { assigned: 'off' } }), 400);
    expect(JSON.stringify(missing)).toContain('Required');
    const unknown = await expectError(await api('users/me/notification-settings', { method: 'PUT', token, json: { ...DEFAULT_NOTIFICATION_SETTINGS, digest: 'off' } }), 400);
    expect(JSON.stringify(unknown)).toContain('Unknown field');
    expect((await readJson(await api('users/me/notification-settings', { token }))).body).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
  });

  it('needs a signed-in person', async () => {
    expect((await api('users/me/notification-settings')).status).toBe(401);
  });
});

describe('mail log', () => {
  const queue = (to: string, status: string) =>
    env.DB.prepare('INSERT INTO mail_outbox ("to", subject, kind, ticket_id, reply_to, text, status, attempts, last_error) VALUES (?1, ?2, ?3, 7, ?4, ?5, ?6, 2, ?7) RETURNING id')
      .bind(to, '[#7] Printer', 'assigned', 'ticket+7.abc@example.com', 'Ann assigned you', status, status === 'failed' ? 'refused' : null)
      .first<{ id: number }>();

  it('lists newest first for admins, filters by status, and shows one with its text', async () => {
    const { token } = await signedIn('admin');
    const first = await queue('a@example.com', 'failed');
    const second = await queue('b@example.com', 'sent');
    const page = (await readJson<Page<MailLogEntry>>(await api('settings/mail?pageSize=100', { token }))).body;
    const ids = page.items.map((item) => item.id);
    expect(ids.indexOf(second!.id)).toBeLessThan(ids.indexOf(first!.id));
    const failed = (await readJson<Page<MailLogEntry>>(await api('settings/mail?status=failed&pageSize=100', { token }))).body;
    expect(failed.items.every((item) => item.status === 'failed')).toBe(true);
    expect(failed.items.map((item) => item.id)).toContain(first!.id);
    const detail = (await readJson<MailLogDetail>(await api(`settings/mail/${first!.id}`, { token }))).body;
    expect(detail).toMatchObject({ id: first!.id, to: 'a@example.com', subject: '[#7] Printer', kind: 'assigned', ticketId: 7, replyTo: 'ticket+7.abc@example.com', status: 'failed', attempts: 2, lastError: 'refused', sentAt: null, text: 'Ann assigned you' });
    expect(typeof detail.at).toBe('string');
  });

  it('is for admins only, and refuses a bad status, a bad id and an unknown one', async () => {
    for (const role of ['staff', 'billing'] as const) {
      const { token } = await signedIn(role);
      expect((await api('settings/mail', { token })).status).toBe(403);
      expect((await api('settings/mail/1', { token })).status).toBe(403);
    }
    const { token } = await signedIn('admin');
    await expectError(await api('settings/mail?status=lost', { token }), 400);
    await expectError(await api('settings/mail/abc', { token }), 400);
    await expectError(await api('settings/mail/999999999', { token }), 404);
  });
});
