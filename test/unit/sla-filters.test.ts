import { describe, expect, it } from 'vitest';
import { parseSlaReportParams } from '../../src/client/lib/addresses/reports';
import { slaReportQuerySchema } from '../../src/shared/schemas/reports';
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

describe('the SLA report', () => {
  it('keeps months and company in its address, dropping anything else', () => {
    expect(parseSlaReportParams(new URLSearchParams('from=2026-01&to=2026-03&companyId=4'))).toEqual({ from: '2026-01', to: '2026-03', companyId: 4 });
    expect(parseSlaReportParams(new URLSearchParams('from=2026-13&to=2026-1-01&companyId=x'))).toEqual({ from: undefined, to: undefined, companyId: undefined });
  });

  it('asks for months in order and at most two years apart', () => {
    expect(slaReportQuerySchema.isValidSync({ from: '2025-01', to: '2026-12' })).toBe(true);
    expect(slaReportQuerySchema.isValidSync({ from: '2026-03', to: '2026-02' })).toBe(false);
    expect(slaReportQuerySchema.isValidSync({ from: '2024-01', to: '2026-01' })).toBe(false);
    expect(slaReportQuerySchema.isValidSync({ from: '2026-01-01', to: '2026-02' })).toBe(false);
  });
});
