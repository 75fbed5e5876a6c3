import { Text } from '@mantine/core';
import { createCompanySchema } from '../../../shared/schemas/lookups';
import type { Company } from '../../../shared/types';
import { formatDateTime } from '../../lib/format';
import { SwitchField, TextField, TextareaField } from '../../lib/form/fields';
import { TagsField } from '../../lib/form/TagsField';
import { ActiveBadge } from '../../lib/ui/ActiveBadge';
import { Facts } from '../../lib/ui/Facts';
import { lookupApi } from './api';
import { LookupPage, type LookupConfig } from './LookupPage';

const config: LookupConfig<Company> = {
  title: 'Companies',
  description: 'Customers the desk works for',
  noun: 'Company',
  entity: 'company',
  permission: 'manageCompanies',
  api: lookupApi('companies'),
  schema: createCompanySchema,
  blank: { name: '', code: '', email: '', phone: '', address: '', emailDomains: [], isActive: true },
  valuesOf: ({ name, code, email, phone, address, emailDomains, isActive }) => ({ name, code, email, phone, address, emailDomains, isActive }),
  columns: [
    { key: 'name', label: 'Name', render: (c) => <Text size="sm" fw={500}>{c.name}</Text> },
    { key: 'code', label: 'Code', render: (c) => c.code || '—' },
    { key: 'email', label: 'Email', visibleFrom: 'sm', render: (c) => c.email || '—' },
    { key: 'phone', label: 'Phone', visibleFrom: 'md', render: (c) => c.phone || '—' },
    { key: 'status', label: 'Status', visibleFrom: 'xs', render: (c) => <ActiveBadge active={c.isActive} /> },
  ],
  fields: (
    <>
      <TextField name="name" label="Name" />
      <TextField name="code" label="Code" />
      <TextField name="email" label="Email" type="email" />
      <TextField name="phone" label="Phone" type="tel" />
      <TextareaField name="address" label="Address" autosize minRows={2} />
      <TagsField name="emailDomains" label="Mail domains" description="Mail from these domains to the support inbox opens a ticket for this company" placeholder="example.com" />
      <SwitchField name="isActive" label="Active" />
    </>
  ),
  facts: (c) => [
    ['Name', c.name],
    ['Code', c.code || '—'],
    ['Email', c.email || '—'],
    ['Phone', c.phone || '—'],
    ['Address', c.address ? <Text span size="sm" style={{ whiteSpace: 'pre-wrap' }}>{c.address}</Text> : '—'],
    ['Mail domains', c.emailDomains.length ? c.emailDomains.join(', ') : '—'],
  ],
  details: (c) => <Facts items={[['Status', <ActiveBadge active={c.isActive} />], ['Created', formatDateTime(c.createdAt)], ['Updated', formatDateTime(c.updatedAt)]]} />,
};

export function CompaniesPage() {
  return <LookupPage config={config} />;
}
