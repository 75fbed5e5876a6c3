import { describe, expect, it } from 'vitest';
import { parseTicketsParams, ticketLinks } from '../../src/client/lib/addresses/tickets';
import { ticketListQuerySchema } from '../../src/shared/schemas/tickets';

describe('the tickets list SLA filter', () => {
  it('is kept in the address and read back; an unknown value is no filter', () => {
    const link = ticketLinks.list({ sla: 'due_soon' });
    expect(link).toContain('sla=due_soon');
    expect(parseTicketsParams(new URL(link, 'https://x.test').searchParams).sla).toBe('due_soon');
    expect(parseTicketsParams(new URLSearchParams('sla=late')).sla).toBeUndefined();
  });

  it('is one of breached, due_soon or paused in the list query', () => {
    for (const sla of ['breached', 'due_soon', 'paused']) expect(ticketListQuerySchema.isValidSync({ sla })).toBe(true);
    expect(() => ticketListQuerySchema.validateSync({ sla: 'late' })).toThrow(/breached, due_soon, paused/);
  });
});
