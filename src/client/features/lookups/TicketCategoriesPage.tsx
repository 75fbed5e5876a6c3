import { Text } from '@mantine/core';
import { createTicketCategorySchema } from '../../../shared/schemas/lookups';
import type { TicketCategory } from '../../../shared/types';
import { formatDateTime } from '../../lib/format';
import { SwitchField, TextField, TextareaField } from '../../lib/form/fields';
import { ActiveBadge } from '../../lib/ui/ActiveBadge';
import { Facts } from '../../lib/ui/Facts';
import { lookupApi } from './api';
import { LookupPage, type LookupConfig } from './LookupPage';

const config: LookupConfig<TicketCategory> = {
  title: 'Ticket categories',
  description: 'How tickets are grouped',
  noun: 'Category',
  entity: 'ticket_category',
  permission: 'manageTicketCategories',
  api: lookupApi('ticket-categories'),
  schema: createTicketCategorySchema,
  blank: { name: '', description: '', isActive: true },
  valuesOf: ({ name, description, isActive }) => ({ name, description, isActive }),
  columns: [
    { key: 'name', label: 'Name', render: (c) => <Text size="sm" fw={500}>{c.name}</Text> },
    { key: 'description', label: 'Description', visibleFrom: 'sm', render: (c) => <Text size="sm" lineClamp={1}>{c.description || '—'}</Text> },
    { key: 'status', label: 'Status', render: (c) => <ActiveBadge active={c.isActive} /> },
  ],
  fields: (
    <>
      <TextField name="name" label="Name" />
      <TextareaField name="description" label="Description" autosize minRows={2} />
      <SwitchField name="isActive" label="Active" />
    </>
  ),
  facts: (c) => [
    ['Name', c.name],
    ['Description', c.description ? <Text span size="sm" style={{ whiteSpace: 'pre-wrap' }}>{c.description}</Text> : '—'],
  ],
  details: (c) => <Facts items={[['Status', <ActiveBadge active={c.isActive} />], ['Created', formatDateTime(c.createdAt)], ['Updated', formatDateTime(c.updatedAt)]]} />,
};

export function TicketCategoriesPage() {
  return <LookupPage config={config} />;
}
