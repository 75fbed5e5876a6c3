import { Select, SimpleGrid } from '@mantine/core';
import type { Option } from '../../lib/form/fields';
import { SearchField } from '../../lib/ui/SearchField';
import type { TicketFilters as Filters } from './api';
import { PRIORITY_OPTIONS, STATUS_OPTIONS } from './labels';

interface Props {
  filters: Filters;
  options: { companies: Option[]; categories: Option[]; users: Option[] };
  onChange: (changes: Filters) => void;
}

const idOf = (value: string | null) => (value ? Number(value) : undefined);

export function TicketFilters({ filters, options, onChange }: Props) {
  const select = (label: string, data: Option[], value: string | undefined, change: (value: string | null) => void) => (
    <Select label={label} data={data} value={value ?? null} onChange={change} placeholder="Any" clearable searchable />
  );
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 6 }} mb="md">
      <SearchField label="Search" placeholder="Title or #id" onSearch={(q) => onChange({ q })} />
      {select('Status', STATUS_OPTIONS, filters.status, (status) => onChange({ status: (status ?? undefined) as Filters['status'] }))}
      {select('Priority', PRIORITY_OPTIONS, filters.priority, (priority) => onChange({ priority: (priority ?? undefined) as Filters['priority'] }))}
      {select('Company', options.companies, filters.companyId?.toString(), (v) => onChange({ companyId: idOf(v) }))}
      {select('Category', options.categories, filters.categoryId?.toString(), (v) => onChange({ categoryId: idOf(v) }))}
      {select('Assignee', options.users, filters.assigneeId?.toString(), (v) => onChange({ assigneeId: idOf(v) }))}
    </SimpleGrid>
  );
}
