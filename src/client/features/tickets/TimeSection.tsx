import { Badge, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { timeEntrySchema, type TimeEntryPayload } from '../../../shared/schemas/tickets';
import type { TimeEntry } from '../../../shared/types';
import { formatDate, formatMinutes } from '../../lib/format';
import { DateField, NumberField, SwitchField, TextField } from '../../lib/form/fields';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';
import { today } from '../../lib/today';
import { MutationForm } from '../../lib/form/MutationForm';
import type { Mutation } from '../../lib/form/use-mutation';
import { addTimeEntry, useTimeEntries } from './api';

const validate = validateWith(timeEntrySchema);

export function TimeSection({ ticketId }: { ticketId: number }) {
  const entries = useTimeEntries(ticketId);
  const items = entries.data?.items ?? [];
  const total = items.reduce((sum, entry) => sum + entry.minutes, 0);
  const billable = items.reduce((sum, entry) => sum + (entry.billable ? entry.minutes : 0), 0);

  const log: Mutation<TimeEntryPayload, TimeEntry> = {
    send: (values) => addTimeEntry(ticketId, values),
    success: (entry) => ['Time logged', formatMinutes(entry.minutes)],
    failure: 'Time not logged',
    onSuccess: () => entries.mutate(),
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Time
        </Title>
        <Text size="sm" data-testid="time-total">
          {formatMinutes(total)} logged · {formatMinutes(billable)} billable
        </Text>
      </Group>
      {!entries.data && !entries.error ? <Skeleton height={48} /> : null}
      {entries.error ? <Text c="red">{entries.error.message}</Text> : null}
      {entries.data && items.length === 0 ? <Text c="dimmed">No time logged yet.</Text> : null}
      {items.length ? (
        <Table.ScrollContainer minWidth={0}>
          <Table verticalSpacing={4} aria-label="Time entries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th visibleFrom="sm">Note</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatDate(entry.workDate)}</Table.Td>
                  <Table.Td>{entry.userName}</Table.Td>
                  <Table.Td>
                    {formatMinutes(entry.minutes)} {entry.billable ? null : <Badge size="xs" color="gray">non-billable</Badge>}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">{entry.note}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <MutationForm<TimeEntryPayload, TimeEntry>
        mutation={log}
        validate={validate}
        initialValues={{ workDate: today(), note: '', billable: true }}
        // The next entry is often for the same day.
        next={(saved) => ({ workDate: saved.workDate, note: '', billable: true })}
      >
        {({ submitting }) => (
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <DateField name="workDate" label="Date" />
              <NumberField name="minutes" label="Minutes" min={1} max={1440} step={15} />
            </SimpleGrid>
            <TextField name="note" label="Note" />
            <SwitchField name="billable" label="Billable" />
            <SubmitButton label="Log time" submitting={submitting} />
          </Stack>
        )}
      </MutationForm>
    </Stack>
  );
}
