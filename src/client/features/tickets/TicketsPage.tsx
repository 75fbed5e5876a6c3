import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo } from 'react';
import type { TicketPayload } from '../../../shared/schemas/tickets';
import type { Ticket } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import type { ValueFormats } from '../../lib/audit/describe';
import type { Option } from '../../lib/form/fields';
import { formatDate } from '../../lib/format';
import { useRecordOptions, type RecordOption } from '../../lib/record-options';
import type { Mutation } from '../../lib/form/use-mutation';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { FormModal } from '../../lib/ui/FormModal';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { createTicket, fetchTicket, updateTicket, useTicket, useTickets } from './api';
import { AttachmentsSection } from './AttachmentsSection';
import { CommentsSection } from './CommentsSection';
import { ticketSort, useTicketsParams } from '../../lib/addresses/tickets';
import { TicketFilters } from './TicketFilters';
import { NEW_TICKET, TicketForm, editableFields } from './TicketForm';
import { TicketBody } from './TicketBody';
import { TicketFact } from './TicketFact';
import { TimeSection } from './TimeSection';
import { RecordState } from '../../lib/ui/RecordState';
import { SlaBadge } from '../../lib/sla/SlaBadge';
import { SlaReading } from '../../lib/sla/SlaReading';
import { useTicketChange, type TicketChange } from './use-ticket-change';

/** The list's columns; status, priority and assignee change in place, before the API answers. */
const columnsOf = (people: readonly RecordOption[], change: TicketChange): Column<Ticket>[] => [
  { key: 'id', label: '#', sort: 'id', render: (t) => t.id },
  {
    key: 'title',
    label: 'Title',
    sort: 'title',
    render: (t) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm" fw={500} lineClamp={1}>
          {t.title}
        </Text>
        {t.sla ? <SlaBadge sla={t.sla} /> : null}
      </Group>
    ),
  },
  { key: 'status', label: 'Status', sort: 'status', render: (t) => <TicketFact ticket={t} field="status" people={people} change={change} /> },
  { key: 'priority', label: 'Priority', sort: 'priority', visibleFrom: 'sm', render: (t) => <TicketFact ticket={t} field="priority" people={people} change={change} /> },
  {
    key: 'company',
    label: 'Company',
    visibleFrom: 'md',
    // A ticket opened by mail names who wrote in under their company.
    render: (t) =>
      t.requester ? (
        <Stack gap={0}>
          <Text size="sm">{t.companyName ?? '—'}</Text>
          {/* Full-strength text: a dimmed line fails contrast on the selected row's highlight. */}
          <Text size="xs" title="Requester">
            {t.requester.name || t.requester.email}
          </Text>
        </Stack>
      ) : (
        (t.companyName ?? '—')
      ),
  },
  { key: 'assignee', label: 'Assignee', visibleFrom: 'lg', render: (t) => <TicketFact ticket={t} field="assigneeId" people={people} change={change} /> },
  { key: 'created', label: 'Created', sort: 'createdAt', visibleFrom: 'md', render: (t) => formatDate(t.createdAt) },
  { key: 'sla', label: 'SLA', sort: 'slaDueAt', visibleFrom: 'lg', render: (t) => (t.sla ? <SlaReading sla={t.sla} /> : '—') },
];

const DEFAULT_SORT = '-createdAt' as const;
const labelOf = (options: Option[]) => (value: unknown) => options.find((option) => option.value === String(value))?.label;

export function TicketsPage() {
  const [{ id, page = 1, sort = DEFAULT_SORT, ...filters }, view] = useTicketsParams();
  const setParams = view.update;
  const tickets = useTickets({ ...filters, sort, page });
  const ticket = useTicket(id);
  const companies = useRecordOptions('companies');
  const categories = useRecordOptions('ticket-categories');
  const users = useRecordOptions('users');
  const [creating, { open: openCreate, close: closeCreate }] = useDisclosure(false);
  const change = useTicketChange(tickets, ticket, users);
  const historyFormats = useMemo<ValueFormats>(
    () => ({
      companyId: labelOf(companies),
      categoryId: labelOf(categories),
      assigneeId: labelOf(users),
      reporterId: labelOf(users),
    }),
    [companies, categories, users],
  );

  const create: Mutation<TicketPayload, Ticket> = {
    send: (values) => createTicket(values),
    success: (created) => ['Ticket created', `#${created.id} ${created.title}`],
    failure: 'Ticket not created',
    onSuccess: async (created) => {
      closeCreate();
      setParams({ id: created.id });
      await tickets.mutate();
    },
  };

  const showTicket = (current: Ticket) => Promise.all([ticket.mutate(current, { revalidate: false }), tickets.mutate()]);

  const save = (edited: Ticket): Mutation<TicketPayload, Ticket> => ({
    send: (values, ifMatch) => updateTicket(edited.id, values, ifMatch),
    success: (updated) => ['Ticket saved', `#${updated.id}`],
    failure: 'Ticket not saved',
    onSuccess: showTicket,
  });

  return (
    <>
      <PageTitle title="Tickets" description="Service desk requests" actions={<Button onClick={openCreate}>New ticket</Button>} />
      <TicketFilters filters={filters} onChange={view.filter} onSearch={view.search} />
      <DataTable
        label="Tickets"
        columns={columnsOf(users, change)}
        page={tickets.data}
        error={tickets.error}
        onRetry={() => tickets.mutate()}
        onPageChange={view.goTo}
        onOpen={(row) => setParams({ id: row.id })}
        selectedId={id}
        sort={sort}
        onSortChange={(next) => view.filter({ sort: next === DEFAULT_SORT ? undefined : ticketSort(next) })}
        empty={{ title: 'No tickets match', description: 'Change the filters or create a ticket.' }}
      />
      <FormModal opened={creating} onClose={closeCreate} title="New ticket" size="lg">
        <TicketForm initialValues={NEW_TICKET} submitLabel="Create ticket" mutation={create} draftKey="ticket:new" />
      </FormModal>
      <RecordDrawer opened={id !== undefined} onClose={() => setParams({ id: undefined })} title={ticket.data ? `#${ticket.data.id} ${ticket.data.title}` : `Ticket #${id ?? ''}`}>
        <RecordState read={ticket} noun="Ticket">
          {(current) => (
            <Stack>
              <TicketBody
                key={current.id}
                ticket={current}
                people={users}
                change={change}
                save={save(current)}
                record={{
                  entity: 'ticket',
                  id: current.id,
                  version: current.version,
                  valuesOf: editableFields,
                  onReload: (reloaded) => void showTicket(reloaded),
                  read: fetchTicket,
                  formats: historyFormats,
                }}
              />
              <Divider />
              <CommentsSection ticket={current} people={users} onTicketChanged={() => Promise.all([ticket.mutate(), tickets.mutate()])} />
              <Divider />
              <TimeSection ticketId={current.id} />
              <Divider />
              <AttachmentsSection ticketId={current.id} />
              <Divider />
              <HistorySection changedAt={current.updatedAt} entity="ticket" entityId={current.id} formats={historyFormats} people={users} />
            </Stack>
          )}
        </RecordState>
      </RecordDrawer>
    </>
  );
}
