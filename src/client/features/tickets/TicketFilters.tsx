import { Checkbox, Group, Select } from '@mantine/core';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '../../../shared/schemas/tickets';
import type { Option } from '../../lib/form/fields';
import { optionalId, optionalOneOf } from '../../lib/url-state';
import { FoldingFilters } from '../../lib/ui/FoldingFilters';
import { SearchField } from '../../lib/ui/SearchField';
import type { TicketsView } from './url-state';
import { PRIORITY_OPTIONS, STATUS_OPTIONS } from '../../lib/ticket-labels';
import classes from './ticket-filters.module.css';

interface Props {
  filters: Partial<TicketsView>;
  options: { companies: Option[]; categories: Option[]; users: Option[] };
  onChange: (changes: Partial<TicketsView>) => void;
  onSearch: (q: string) => void;
}

// The dashboard's cards open the list with these set, so they show as plain, labelled checkboxes.
const FLAGS = [
  { key: 'open', label: 'Open only' },
  { key: 'overdue', label: 'Overdue' },
  { key: 'mine', label: 'Assigned to me' },
] as const;

export function TicketFilters({ filters, options, onChange, onSearch }: Props) {
  const active = [filters.status, filters.priority, filters.companyId, filters.categoryId, filters.assigneeId].filter(
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
  const search = <SearchField label="Search" placeholder='Words, "a phrase" or #id' value={filters.q} onSearch={onSearch} />;
  const selects = (
    <>
      {select('Status', STATUS_OPTIONS, filters.status, (status) => onChange({ status: optionalOneOf(TICKET_STATUSES, status) }))}
      {select('Priority', PRIORITY_OPTIONS, filters.priority, (priority) => onChange({ priority: optionalOneOf(TICKET_PRIORITIES, priority) }))}
      {select('Company', options.companies, filters.companyId?.toString(), (v) => onChange({ companyId: optionalId(v) }))}
      {select('Category', options.categories, filters.categoryId?.toString(), (v) => onChange({ categoryId: optionalId(v) }))}
      {select('Assignee', options.users, filters.assigneeId?.toString(), (v) => onChange({ assigneeId: optionalId(v) }))}
    </>
  );

  return (
    <FoldingFilters id="ticket-filters" active={active} gridClassName={classes.grid} lead={search} after={flags}>
      {selects}
    </FoldingFilters>
  );
}
