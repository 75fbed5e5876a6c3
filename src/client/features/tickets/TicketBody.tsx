import { Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import type { TicketPayload } from '../../../shared/schemas/tickets';
import type { Ticket } from '../../../shared/types';
import { clearDraft, readDraft } from '../../lib/form/drafts';
import type { EditedRecord } from '../../lib/form/MutationForm';
import type { Mutation } from '../../lib/form/use-mutation';
import type { RecordOption } from '../../lib/record-options';
import { editableFields, TicketForm } from './TicketForm';
import { TicketView } from './TicketView';
import type { TicketChange } from './use-ticket-change';
import { WatchButton } from './WatchButton';

/**
 * The top of an open ticket: the read view, or the form in its place after "Edit". A description
 * draft kept from before a reload opens the form, so the typing is in sight; Save and Cancel go
 * back to reading.
 */
interface TicketBodyProps {
  ticket: Ticket;
  people: readonly RecordOption[];
  /** Status, priority and assignee changed in place from the read view. */
  change: TicketChange;
  save: Mutation<TicketPayload, Ticket>;
  record: EditedRecord<TicketPayload, Ticket>;
}

export function TicketBody({ ticket, people, change, save, record }: TicketBodyProps) {
  const draftKey = `ticket:${ticket.id}`;
  const [editing, setEditing] = useState(() => readDraft(draftKey) !== null);
  const watch = <WatchButton ticketId={ticket.id} />;
  if (!editing) return <TicketView ticket={ticket} people={people} change={change} onEdit={() => setEditing(true)} actions={watch} />;
  const saved: Mutation<TicketPayload, Ticket> = {
    ...save,
    onSuccess: async (result, values) => {
      setEditing(false);
      await save.onSuccess?.(result, values);
    },
  };
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        {watch}
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            clearDraft(draftKey);
            setEditing(false);
          }}
        >
          Cancel editing
        </Button>
      </Group>
      <TicketForm key={ticket.updatedAt} initialValues={editableFields(ticket)} submitLabel="Save ticket" mutation={saved} draftKey={draftKey} record={record} />
    </Stack>
  );
}
