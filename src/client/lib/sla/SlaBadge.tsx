import { Badge } from '@mantine/core';
import type { TicketSla } from '../../../shared/sla';
import { readClock } from './clock';
import { useNow } from './use-now';

/**
 * The tickets list's small mark for a clock that needs attention: "SLA breached" or "SLA due soon"
 * in words as well as colour; nothing for a clock that is running comfortably, paused or met.
 */
export function SlaBadge({ sla, now: fixedNow }: { sla: TicketSla; now?: number }) {
  const ticking = useNow();
  const reading = readClock(sla, fixedNow ?? ticking);
  if (reading.label === 'Breached') {
    return (
      <Badge size="xs" color="red" variant="light" data-testid="sla-badge">
        SLA breached
      </Badge>
    );
  }
  if (!reading.dueSoon) return null;
  return (
    <Badge size="xs" color="yellow" variant="light" data-testid="sla-badge">
      SLA due soon
    </Badge>
  );
}
