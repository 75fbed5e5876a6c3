import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readClock, relativeTo } from '../../src/client/lib/sla/clock';
import { SlaBadge } from '../../src/client/lib/sla/SlaBadge';
import { SlaClock } from '../../src/client/lib/sla/SlaClock';
import type { TicketSla } from '../../src/shared/sla';

const now = Date.parse('2026-11-26T12:00:00Z');
const sla = (over: Partial<TicketSla> = {}): TicketSla => ({
  policyId: 1,
  policyName: 'Gold',
  firstResponseDueAt: '2026-11-26T14:00:00Z',
  firstRespondedAt: null,
  resolutionDueAt: '2026-11-27T12:00:00Z',
  pausedSeconds: 0,
  state: 'running',
  ...over,
});

afterEach(cleanup);

describe('readClock: the ticket clock in words as well as colour', () => {
  it('counts down to the first response while it is unanswered, then to the resolution', () => {
    expect(readClock(sla(), now)).toEqual({ label: '2 h left', tone: 'yellow', dueSoon: true });
    expect(readClock(sla({ firstRespondedAt: '2026-11-26T11:00:00Z' }), now)).toEqual({ label: '24 h left', tone: 'green', dueSoon: false });
  });

  it('names paused, met and breached states, and a passed due time as breached', () => {
    expect(readClock(sla({ state: 'paused' }), now).label).toBe('Paused');
    expect(readClock(sla({ state: 'met' }), now)).toMatchObject({ label: 'Met', tone: 'green' });
    expect(readClock(sla({ state: 'breached' }), now)).toMatchObject({ label: 'Breached', tone: 'red' });
    expect(readClock(sla({ firstResponseDueAt: '2026-11-26T11:59:00Z' }), now)).toMatchObject({ label: 'Breached', tone: 'red' });
  });

  it('reads times ahead and behind', () => {
    expect(relativeTo('2026-11-26T13:30:00Z', now)).toBe('in 1 h 30 min');
    expect(relativeTo('2026-11-26T11:55:00Z', now)).toBe('5 min ago');
  });
});

describe('SlaClock', () => {
  it('shows the policy, both due times with the absolute time as title, and the state', () => {
    render(
      <MantineProvider>
        <SlaClock sla={sla()} now={now} />
      </MantineProvider>,
    );
    expect(screen.getByText('Gold')).toBeTruthy();
    expect(screen.getByTestId('sla-state').textContent).toBe('2 h left');
    const due = screen.getByText('in 2 h');
    expect(due.getAttribute('datetime')).toBe('2026-11-26T14:00:00Z');
    expect(due.getAttribute('title')).toMatch(/2026/);
    expect(screen.getByText('in 24 h')).toBeTruthy();
  });
});

describe('SlaBadge: the list row marks only clocks that need attention', () => {
  const badge = (over: Partial<TicketSla>) => {
    render(
      <MantineProvider>
        <SlaBadge sla={sla(over)} now={now} />
      </MantineProvider>,
    );
    return screen.queryByTestId('sla-badge')?.textContent ?? null;
  };

  it('says breached or due soon, and nothing otherwise', () => {
    expect(badge({ state: 'breached' })).toBe('SLA breached');
    cleanup();
    expect(badge({})).toBe('SLA due soon');
    cleanup();
    expect(badge({ firstRespondedAt: '2026-11-26T11:00:00Z' })).toBeNull();
    cleanup();
    expect(badge({ state: 'paused' })).toBeNull();
    cleanup();
    expect(badge({ state: 'met' })).toBeNull();
  });
});
