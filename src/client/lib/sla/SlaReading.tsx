import { Text } from '@mantine/core';
import type { TicketSla } from '../../../shared/sla';
import { formatDateTime } from '../format';
import { nextDueAt, readClock } from './clock';
import { useNow } from './use-now';

/**
 * The tickets list's SLA cell: the clock's word ("3 h 20 min left", "Paused", "Met", "Breached")
 * with the next due time on hover, the same reading as the drawer's clock.
 */
export function SlaReading({ sla }: { sla: TicketSla }) {
  const reading = readClock(sla, useNow());
  const due = formatDateTime(nextDueAt(sla));
  return (
    <Text size="sm" fw={reading.tone === 'red' ? 700 : undefined} title={`Next due ${due}`} data-testid="sla-reading">
      {reading.label}
    </Text>
  );
}
