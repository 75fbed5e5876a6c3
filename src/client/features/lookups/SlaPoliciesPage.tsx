import { Select, Text } from '@mantine/core';
import { useField } from 'react-final-form';
import { createSlaPolicySchema } from '../../../shared/schemas/sla';
import type { SlaPolicy } from '../../../shared/sla';
import { formatDateTime, formatMinutes } from '../../lib/format';
import { NumberField, TextField, errorOf } from '../../lib/form/fields';
import { RecordSelectField } from '../../lib/form/RecordSelectField';
import { PRIORITY_LABELS, PRIORITY_OPTIONS } from '../../lib/ticket-labels';
import { Facts } from '../../lib/ui/Facts';
import { lookupApi } from './api';
import { LookupPage, type LookupConfig } from './LookupPage';

const ANY = 'any';

/** A policy's priority: one of the ticket priorities, or any (null). */
function PriorityMatchField() {
  const { input, meta } = useField<string | null>('priority');
  return (
    <Select
      label="Priority"
      data={[{ value: ANY, label: 'Any priority' }, ...PRIORITY_OPTIONS]}
      value={input.value || ANY}
      onChange={(value) => input.onChange(value === ANY ? null : value)}
      onBlur={input.onBlur}
      error={errorOf(meta)}
      allowDeselect={false}
    />
  );
}

const matches = (p: SlaPolicy) =>
  [p.companyName ?? 'any company', p.categoryName ?? 'any category', p.priority ? `${PRIORITY_LABELS[p.priority as keyof typeof PRIORITY_LABELS]} priority` : 'any priority'].join(', ');

const config: LookupConfig<SlaPolicy> = {
  title: 'SLA policies',
  description: 'The first policy by position that matches a ticket sets its targets',
  noun: 'Policy',
  entity: 'sla_policy',
  permission: 'manageServiceLevels',
  api: lookupApi('sla-policies'),
  schema: createSlaPolicySchema,
  blank: { name: '', position: 10, companyId: null, categoryId: null, priority: null, calendarId: null, firstResponseMinutes: 240, resolutionMinutes: 2400 },
  valuesOf: ({ name, position, companyId, categoryId, priority, calendarId, firstResponseMinutes, resolutionMinutes }) => ({
    name,
    position,
    companyId,
    categoryId,
    priority,
    calendarId,
    firstResponseMinutes,
    resolutionMinutes,
  }),
  columns: [
    { key: 'position', label: 'Position', render: (p) => <Text size="sm">{p.position}</Text> },
    { key: 'name', label: 'Name', render: (p) => <Text size="sm" fw={500}>{p.name}</Text> },
    { key: 'matches', label: 'Matches', visibleFrom: 'sm', render: (p) => <Text size="sm" lineClamp={1}>{matches(p)}</Text> },
    { key: 'targets', label: 'Targets', render: (p) => <Text size="sm">{`${formatMinutes(p.firstResponseMinutes)} / ${formatMinutes(p.resolutionMinutes)}`}</Text> },
  ],
  fields: (
    <>
      <TextField name="name" label="Name" />
      <NumberField name="position" label="Position" description="Lower comes first" allowDecimal={false} />
      <RecordSelectField name="companyId" label="Company" records="companies" placeholder="Any company" />
      <RecordSelectField name="categoryId" label="Category" records="ticket-categories" placeholder="Any category" />
      <PriorityMatchField />
      <RecordSelectField name="calendarId" label="Calendar" records="calendars" placeholder="Choose a calendar" />
      <NumberField name="firstResponseMinutes" label="First response target (business minutes)" allowDecimal={false} />
      <NumberField name="resolutionMinutes" label="Resolution target (business minutes)" allowDecimal={false} />
    </>
  ),
  facts: (p) => [
    ['Name', p.name],
    ['Position', p.position],
    ['Matches', matches(p)],
    ['Calendar', p.calendarName],
    ['First response', formatMinutes(p.firstResponseMinutes)],
    ['Resolution', formatMinutes(p.resolutionMinutes)],
  ],
  details: (p) => <Facts items={[['Created', formatDateTime(p.createdAt)], ['Updated', formatDateTime(p.updatedAt)]]} />,
};

export function SlaPoliciesPage() {
  return <LookupPage config={config} />;
}
