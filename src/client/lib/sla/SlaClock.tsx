import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { TicketSla } from '../../../shared/sla';
import { formatDateTime } from '../format';
import { readClock, relativeTo } from './clock';
import { useNow } from './use-now';

/**
 * The service-level clock in the ticket drawer: which policy, when the first response and the
 * resolution are due, and the state as a word beside its colour. Times read relative to now with
 * the absolute time on hover and in the title.
 */
function When({ at, now }: { at: string; now: number }) {
  const absolute = formatDateTime(at);
  return (
    <Tooltip label={absolute}>
      <time dateTime={at} title={absolute} tabIndex={0}>
        {relativeTo(at, now)}
      </time>
    </Tooltip>
  );
}

export function SlaClock({ sla, now: fixedNow }: { sla: TicketSla; now?: number }) {
  const ticking = useNow();
  const now = fixedNow ?? ticking;
  const reading = readClock(sla, now);
  return (
    <Stack gap={4} data-testid="sla-clock" aria-label="Service level">
      <Group gap="xs">
        <Text size="sm" fw={500}>
          {sla.policyName}
        </Text>
        <Badge color={reading.tone} variant="light" data-testid="sla-state">
          {reading.label}
        </Badge>
      </Group>
      <Text size="xs">
        First response {sla.firstRespondedAt ? <>made <When at={sla.firstRespondedAt} now={now} /></> : <>due <When at={sla.firstResponseDueAt} now={now} /></>}
      </Text>
      <Text size="xs">
        Resolution due <When at={sla.resolutionDueAt} now={now} />
      </Text>
    </Stack>
  );
}
