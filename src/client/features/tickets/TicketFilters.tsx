import { Checkbox, Group, Select } from '@mantine/core';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../../../shared/schemas/tickets';
import type { Option } from '../../lib/form/fields';
import type { RecordKind } from '../../lib/record-options';
import { optionalOneOf } from '../../lib/url-state';
import { RecordSelect } from '../../lib/ui/RecordSelect';
import { FoldingFilters } from '../../lib/ui/FoldingFilters';
import { SearchField } from '../../lib/ui/SearchField';
import type { TicketsView } from '../../lib/addresses/tickets';
import { PRIORITY_OPTIONS, SLA_FILTER_OPTIONS, STATUS_OPTIONS } from '../../lib/ticket-labels';
import { SLA_FILTERS } from '../../../shared/sla';
import classes from './ticket-filters.module.css';

interface Props {
  filters: Partial<TicketsView>;
  onChange: (changes: Partial<TicketsView>) => void;
  onSearch: (q: string) => void;
}

// The dashboard's cards open the list with these set, so they show as plain, labelled checkboxes.
const FLAGS = [
  { key: 'open', label: 'Open only' },
  { key: 'overdue', label: 'Overdue' },
  { key: 'mine', label: 'Assigned to me' },
] as const;

export function TicketFilters({ filters, onChange, onSearch }: Props) {
  const active = [filters.status, filters.priority, filters.companyId, filters.categoryId, filters.assigneeId, filters.sla].filter(
    (value) => value !== undefined,
  ).length;
  const flags = (
    <Group gap="md" role="group" aria-label="Show only">
      {FLAGS.map(({ key, label }) => (
        <Checkbox
          key={key}
          label={label}
          checked={filters[key] === true}
          onChange={(event) => onChange({ [key]: event.currentTarget.checked ? true : undefined })}
        />
      ))}
    </Group>
  );

  const select = (label: string, data: Option[], value: string | undefined, change: (value: string | null) => void) => (
    <Select label={label} data={data} value={value ?? null} onChange={change} placeholder="Any" clearable searchable />
  );
  const recordSelect = (label: string, records: RecordKind, value: number | undefined, change: (id: number | undefined) => void) => (
    <RecordSelect label={label} records={records} value={value ?? null} onChange={(id) => change(id ?? undefined)} placeholder="Any" clearable />
  );
  const search = <SearchField label="Search" placeholder='Words, "a phrase" or #id' value={filters.q} onSearch={onSearch} />;
  const selects = (
    <>
      {select('Status', STATUS_OPTIONS, filters.status, (status) => onChange({ status: optionalOneOf(TICKET_STATUSES, status) }))}
      {select('Priority', PRIORITY_OPTIONS, filters.priority, (priority) => onChange({ priority: optionalOneOf(TICKET_PRIORITIES, priority) }))}
      {recordSelect('Company', 'companies', filters.companyId, (companyId) => onChange({ companyId }))}
      {recordSelect('Category', 'ticket-categories', filters.categoryId, (categoryId) => onChange({ categoryId }))}
      {recordSelect('Assignee', 'users', filters.assigneeId, (assigneeId) => onChange({ assigneeId }))}
      {select('Service level', SLA_FILTER_OPTIONS, filters.sla, (sla) => onChange({ sla: optionalOneOf(SLA_FILTERS, sla) }))}
    </>
  );

  return (
    <FoldingFilters id="ticket-filters" active={active} gridClassName={classes.grid} lead={search} after={flags}>
      {selects}
    </FoldingFilters>
  );
}
