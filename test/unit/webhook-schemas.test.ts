import { describe, expect, it } from 'vitest';
import { ValidationError } from 'yup';
import { WEBHOOK_EVENTS, createWebhookSchema, updateWebhookSchema } from '../../src/shared/schemas/webhooks';
import { parseWebhookParams } from '../../src/client/lib/addresses/webhooks';
import { links } from '../../src/client/lib/links';
import { PAGES } from '../../src/client/lib/pages';

/** The first message a value is refused with, or null when it is taken. */
const refusal = async (schema: typeof createWebhookSchema | typeof updateWebhookSchema, value: unknown) => {
  try {
    await schema.validate(value);
    return null;
  } catch (error) {
    if (error instanceof ValidationError) return error.message;
    throw error;
  }
};

describe('the webhook schemas', () => {
  const good = { url: 'https://erp.example.com/hooks/desk', events: ['ticket.created'], active: true };

  it('take a hook with an address, known events and active', async () => {
    expect(await refusal(createWebhookSchema, good)).toBeNull();
    expect(await refusal(createWebhookSchema, { ...good, events: [...WEBHOOK_EVENTS] })).toBeNull();
    // Whether plain http is allowed is the provider's call (WEBHOOK_ALLOW_LOOPBACK).
    expect(await refusal(createWebhookSchema, { ...good, url: 'http://127.0.0.1:8788/in' })).toBeNull();
    expect(createWebhookSchema.cast({ url: good.url, events: good.events }).active).toBe(true);
  });

  it.each([
    [{ ...good, url: undefined }, 'The address is required'],
    [{ ...good, url: 'ftp://files.example.com/in' }, 'Must be an https:// address'],
    [{ ...good, url: 'erp.example.com/hooks' }, 'Must be an https:// address'],
    [{ ...good, url: `https://example.com/${'a'.repeat(2_000)}` }, 'Must be at most 2000 characters'],
    [{ ...good, events: [] }, 'Pick at least one event'],
    [{ ...good, events: undefined }, 'Pick at least one event'],
    [{ ...good, events: ['ticket.deleted'] }, 'Not a webhook event'],
    [{ ...good, events: ['webhook.test'] }, 'Not a webhook event'],
    [{ ...good, events: [...WEBHOOK_EVENTS, 'ticket.created'] }, 'Each event once'],
    [{ ...good, events: ['ticket.created', 'ticket.created'] }, 'Each event once'],
  ])('refuse %j', async (value, message) => {
    expect(await refusal(createWebhookSchema, value)).toBe(message);
  });

  it('take an edit of any one field, checked the same way', async () => {
    expect(await refusal(updateWebhookSchema, { active: false })).toBeNull();
    expect(await refusal(updateWebhookSchema, { events: ['statement.paid'] })).toBeNull();
    expect(await refusal(updateWebhookSchema, { events: [] })).toBe('Pick at least one event');
    expect(await refusal(updateWebhookSchema, { url: 'javascript:alert(1)' })).toBe('Must be an https:// address');
  });
});

describe('the webhooks page address', () => {
  it('reads the open hook and its delivery log page, and drops values that are not ids or pages', () => {
    expect(parseWebhookParams(new URLSearchParams('id=7&page=2'))).toEqual({ id: 7, page: 2 });
    expect(parseWebhookParams(new URLSearchParams('id=abc&page=-1'))).toEqual({ id: undefined, page: undefined });
  });

  it('is what a link to one hook opens', () => {
    const url = new URL(links.webhook(7), 'https://app.example');
    expect(url.pathname).toBe(`${PAGES.webhooks}/`);
    expect(parseWebhookParams(url.searchParams).id).toBe(7);
  });
});
