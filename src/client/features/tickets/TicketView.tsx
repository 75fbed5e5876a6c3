import { Button, Group, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import type { Ticket } from '../../../shared/types';
import { formatDate } from '../../lib/format';
import { RecordPresence } from '../../lib/live/RecordPresence';
import { useReadingRecord } from '../../lib/live/use-reading-record';
import type { RecordOption } from '../../lib/record-options';
import { MentionText } from '../../lib/ui/MentionText';
import { SlaClock } from '../../lib/sla/SlaClock';
import { TicketFact } from './TicketFact';
import classes from './ticket-view.module.css';
import type { TicketChange } from './use-ticket-change';

/**
 * A ticket as a page to read: its title, its facts in one row, its description as text (mentions
 * as names, line breaks kept). "Edit" turns it into the form in place; on a phone a long
 * description folds so the conversation under it starts on the first screen.
 */
interface TicketViewProps {
  ticket: Ticket;
  people: readonly RecordOption[];
  /** Status, priority and assignee change in place, before the API answers. */
  change?: TicketChange;
  onEdit: () => void;
  actions?: ReactNode;
}

export function TicketView({ ticket, people, change, onEdit, actions }: TicketViewProps) {
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  useReadingRecord('ticket', ticket.id);
  const facts: [string, ReactNode][] = [
    ['Status', <TicketFact key="status" ticket={ticket} field="status" people={people} change={change} />],
    ['Priority', <TicketFact key="priority" ticket={ticket} field="priority" people={people} change={change} />],
    ['Assignee', <TicketFact key="assignee" ticket={ticket} field="assigneeId" people={people} change={change} />],
    ['Company', ticket.companyName ?? '—'],
    ['Category', ticket.categoryName ?? '—'],
    ['Due', ticket.dueAt ? formatDate(ticket.dueAt) : '—'],
    ...(ticket.sla ? [['Service level', <SlaClock key="sla" sla={ticket.sla} />] as [string, ReactNode]] : []),
  ];
  return (
    <Stack gap="xs" data-testid="ticket-view">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Title order={2} size="h3">
          {ticket.title}
        </Title>
        <Button variant="light" size="xs" onClick={onEdit} aria-label={`Edit ticket #${ticket.id}`}>
          Edit
        </Button>
      </Group>
      <Group justify="space-between" gap="xs">
        <Text size="xs" c="dimmed">
          {ticket.requester
            ? `From ${ticket.requester.name ? `${ticket.requester.name} <${ticket.requester.email}>` : ticket.requester.email} by mail`
            : `Reported by ${ticket.reporterName ?? 'unknown'}`}{' '}
          on {formatDate(ticket.createdAt)}
          {ticket.resolvedAt ? ` · resolved ${formatDate(ticket.resolvedAt)}` : ''}
        </Text>
        {actions}
      </Group>
      <RecordPresence entity="ticket" id={ticket.id} />
      <dl className={classes.facts} aria-label="Ticket facts">
        {facts.map(([label, value]) => (
          <div key={label} className={classes.fact}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {ticket.description.trim() ? (
        <Spoiler maxHeight={phone ? 96 : 320} showLabel="Show all of the description" hideLabel="Show less">
          <Text size="sm" className={classes.description} data-testid="ticket-description">
            <MentionText text={ticket.description} known={people} />
          </Text>
        </Spoiler>
      ) : (
        <Text size="sm" c="dimmed">
          No description.
        </Text>
      )}
    </Stack>
  );
}
