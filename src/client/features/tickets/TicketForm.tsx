import { SimpleGrid, Stack } from '@mantine/core';
import { createTicketSchema, type TicketPayload } from '../../../shared/schemas/tickets';
import type { Ticket } from '../../../shared/types';
import { ChoiceField, DateField, TextField } from '../../lib/form/fields';
import { MentionTextareaField } from '../../lib/form/MentionTextareaField';
import { MutationForm, type EditedRecord } from '../../lib/form/MutationForm';
import { RecordSelectField } from '../../lib/form/RecordSelectField';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { PRIORITY_OPTIONS, STATUS_OPTIONS } from '../../lib/ticket-labels';

const validate = validateWith(createTicketSchema);

export const NEW_TICKET: TicketPayload = {
  title: '',
  description: '',
  status: 'open',
  priority: 'normal',
  companyId: null,
  categoryId: null,
  assigneeId: null,
  dueAt: null,
};

/** The editable fields of a ticket, and nothing else, so the server's strict schema accepts them. */
export const editableFields = (ticket: Ticket): TicketPayload => ({
  title: ticket.title,
  description: ticket.description,
  status: ticket.status,
  priority: ticket.priority,
  companyId: ticket.companyId,
  categoryId: ticket.categoryId,
  assigneeId: ticket.assigneeId,
  dueAt: ticket.dueAt ? ticket.dueAt.slice(0, 10) : null,
});

interface TicketFormProps {
  initialValues: TicketPayload;
  submitLabel: string;
  mutation: Mutation<TicketPayload, Ticket>;
  /** The ticket being edited; none for a new one. */
  record?: EditedRecord<TicketPayload, Ticket>;
  /** Where the description's draft is kept: one per ticket, and one for a new ticket. */
  draftKey: string;
}

export function TicketForm({ initialValues, submitLabel, mutation, record, draftKey }: TicketFormProps) {
  return (
    <MutationForm<TicketPayload, Ticket>
      mutation={mutation}
      validate={validate}
      initialValues={initialValues}
      record={record}
      draft={{ key: draftKey, fields: ['title', 'description'] }}
    >
      {({ submitting }) => (
        <Stack>
          <TextField name="title" label="Title" />
          <MentionTextareaField name="description" label="Description" autosize minRows={3} maxRows={10} />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <ChoiceField name="status" label="Status" data={STATUS_OPTIONS} />
            <ChoiceField name="priority" label="Priority" data={PRIORITY_OPTIONS} />
            <RecordSelectField name="companyId" label="Company" records="companies" placeholder="None" />
            <RecordSelectField name="categoryId" label="Category" records="ticket-categories" placeholder="None" />
            <RecordSelectField name="assigneeId" label="Assignee" records="users" activeOnly kept={initialValues.assigneeId} placeholder="Unassigned" />
            <DateField name="dueAt" label="Due date" />
          </SimpleGrid>
          <SubmitButton label={submitLabel} submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}
