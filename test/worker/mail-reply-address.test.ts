import { describe, expect, it } from 'vitest';
import { inboxDomain, readReplyAddress, replyAddress } from '../../src/worker/provider/mail/reply-address';

const SECRET = 'test-secret-of-some-length';

describe('reply addresses', () => {
  it('signs a ticket id into the inbox domain and reads it back', async () => {
    const address = await replyAddress(SECRET, 'Support@Example.COM', 42);
    expect(address).toMatch(/^ticket\+42\.[0-9a-f]{16}@example\.com$/);
    expect(await readReplyAddress(SECRET, address ?? '')).toEqual({ kind: 'ticket', ticketId: 42 });
    expect(await readReplyAddress(SECRET, (address ?? '').toUpperCase())).toEqual({ kind: 'ticket', ticketId: 42 });
  });

  it('refuses a signature made with another secret, for another ticket, or cut short', async () => {
    const address = (await replyAddress(SECRET, 'support@example.com', 42)) ?? '';
    const signature = /\.([0-9a-f]{16})@/.exec(address)?.[1] ?? '';
    expect(await readReplyAddress('another-secret', address)).toEqual({ kind: 'forged' });
    expect(await readReplyAddress(SECRET, `ticket+43.${signature}@example.com`)).toEqual({ kind: 'forged' });
    expect(await readReplyAddress(SECRET, `ticket+42.${signature.slice(0, 15)}@example.com`)).toEqual({ kind: 'forged' });
    expect(await readReplyAddress(SECRET, `ticket+42.${signature}0@example.com`)).toEqual({ kind: 'forged' });
    expect(await readReplyAddress(SECRET, `ticket+0.${signature}@example.com`)).toEqual({ kind: 'forged' });
  });

  it('tells an address that is no reply address from a forged one', async () => {
    expect(await readReplyAddress(SECRET, 'support@example.com')).toEqual({ kind: 'none' });
    expect(await readReplyAddress(SECRET, 'ticket+abc.0123@example.com')).toEqual({ kind: 'none' });
    expect(await readReplyAddress(SECRET, `ticket+${'9'.repeat(16)}.0123456789abcdef@example.com`)).toEqual({ kind: 'none' });
  });

  it('has no address without an inbox', async () => {
    expect(await replyAddress(SECRET, undefined, 1)).toBeNull();
    expect(await replyAddress(SECRET, '', 1)).toBeNull();
    expect(inboxDomain('no-at-sign')).toBeNull();
    expect(inboxDomain('trailing@')).toBeNull();
  });
});
