import { describe, expect, it } from 'vitest';
import { bareAddress, dropReason, MAIL_MAX_BYTES } from '../../src/worker/provider/mail/inbound-rules';
import { ATTACHMENT_MAX_BYTES } from '../../src/shared/schemas/attachments';

describe('received mail rules', () => {
  it('reads the bare address from a header value and refuses what is no address', () => {
    expect(bareAddress('Ann <Ann@Example.com>')).toBe('ann@example.com');
    expect(bareAddress(' bob@example.com ')).toBe('bob@example.com');
    expect(bareAddress('no address here')).toBeNull();
    expect(bareAddress('a@b.com\r\nBcc: c@d.com')).toBeNull();
    expect(bareAddress(undefined)).toBeNull();
  });

  it('drops auto-submitted mail and mail from our own address, and keeps the rest', () => {
    expect(dropReason('auto-replied', 'ann@example.com', 'Help <help@app.test>')).toBe('Auto-Submitted: auto-replied');
    expect(dropReason('Auto-Generated; x=1', 'ann@example.com', undefined)).toBe('Auto-Submitted: auto-generated');
    expect(dropReason(null, 'HELP@app.test', 'Help <help@app.test>')).toBe('Sent from our own address');
    expect(dropReason('no', 'ann@example.com', 'help@app.test')).toBeNull();
    expect(dropReason(null, 'ann@example.com', undefined)).toBeNull();
  });

  it('refuses a 30 MB message by size', () => {
    expect(30 * 1000 * 1000).toBeGreaterThan(MAIL_MAX_BYTES);
    expect(MAIL_MAX_BYTES).toBe(ATTACHMENT_MAX_BYTES);
  });
});
