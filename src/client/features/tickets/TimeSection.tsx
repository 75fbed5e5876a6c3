import { Badge, Group, SimpleGrid, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { timeEntrySchema, updateTimeEntrySchema, type TimeEntryChanges, type TimeEntryPayload } from '../../../shared/schemas/tickets';
import type { TimeEntry } from '../../../shared/types';
import { formatDate, formatMinutes } from '../../lib/format';
import { DurationField } from '../../lib/form/DurationField';
import { DateField, SwitchField, TextField } from '../../lib/form/fields';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';
import { today } from '../../lib/today';
import { MutationForm } from '../../lib/form/MutationForm';
import type { Mutation } from '../../lib/form/use-mutation';
import { addTimeEntry, deleteTimeEntry, editTimeEntry, fetchTimeEntry, useTimeEntries } from './api';
import { CorrectionActions, useMayCorrect } from './CorrectionActions';
import { LockedWeekNote } from './LockedWeekNote';

const validate = validateWith(timeEntrySchema);
const validateChanges = validateWith(updateTimeEntrySchema);

function TimeFields({ submitting, label }: { submitting?: boolean; label: string }) {
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <DateField name="workDate" label="Date" />
        <DurationField name="minutes" label="Minutes" />
      </SimpleGrid>
      <TextField name="note" label="Note" />
      <SwitchField name="billable" label="Billable" />
      <SubmitButton label={label} submitting={submitting} />
    </Stack>
  );
}

const valuesOf = (entry: TimeEntry): TimeEntryChanges => ({ workDate: entry.workDate, minutes: entry.minutes, note: entry.note, billable: entry.billable });

const TIME_ROW = { action: 'time_edit' } as const;

/**
 * The correction of one entry, sent from the version it opened with: a colleague's save meanwhile
 * re-reads into a clean form, and shows a dirty one the conflict notice (theirs or mine) at once.
 */
function TimeEntryEditForm({ entry, onSaved }: { entry: TimeEntry; onSaved: () => unknown }) {
  // The version being edited: following the re-read list would start the form again over the typing.
  const [shown, setShown] = useState(entry);
  const save: Mutation<TimeEntryChanges, TimeEntry> = {
    send: (changes, ifMatch) => editTimeEntry(entry.ticketId, entry.id, changes, ifMatch),
    success: (saved) => ['Time corrected', formatMinutes(saved.minutes)],
    failure: 'Time not corrected',
    onSuccess: onSaved,
  };
  return (
    <MutationForm<TimeEntryChanges, TimeEntry>
      mutation={save}
      validate={validateChanges}
      initialValues={valuesOf(shown)}
      record={{
        entity: 'ticket',
        id: entry.ticketId,
        version: shown.version,
        valuesOf,
        row: TIME_ROW,
        read: () => fetchTimeEntry(entry.ticketId, entry.id),
        onReload: setShown,
      }}
    >
      {({ submitting }) => <TimeFields submitting={submitting} label="Save time" />}
    </MutationForm>
  );
}

export function TimeSection({ ticketId }: { ticketId: number }) {
  const entries = useTimeEntries(ticketId);
  const mayCorrect = useMayCorrect();
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
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
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
                  <Table.Td>
                    {mayCorrect(entry.userId) ? (
                      <CorrectionActions
                        what={`time entry of ${formatDate(`${entry.workDate}T00:00:00`)}, ${formatMinutes(entry.minutes)}`}
                        editor={(close) => (
                          <TimeEntryEditForm
                            entry={entry}
                            onSaved={async () => {
                              close();
                              await entries.mutate();
                            }}
                          />
                        )}
                        remove={() => deleteTimeEntry(ticketId, entry.id, entry.version)}
                        onRemoved={() => entries.mutate()}
                      />
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <LockedWeekNote />
      <MutationForm<TimeEntryPayload, TimeEntry>
        mutation={log}
        validate={validate}
        initialValues={{ workDate: today(), note: '', billable: true }}
        // The next entry is often for the same day.
        next={(saved) => ({ workDate: saved.workDate, note: '', billable: true })}
      >
        {({ submitting }) => <TimeFields submitting={submitting} label="Log time" />}
      </MutationForm>
    </Stack>
  );
}
