import { Select, type SelectProps } from '@mantine/core';
import { useState } from 'react';
import { activeOptions, useRecordOptions, type RecordKind } from '../record-options';

export type RecordSelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange' | 'searchable' | 'onSearchChange'> & {
  records: RecordKind;
  /** The chosen record's id, or null for none. */
  value: number | null;
  onChange: (id: number | null) => void;
  /** Offers only active records; `kept`, a deactivated one already held, stays, marked. */
  activeOnly?: boolean;
  kept?: number | null;
};

/** A select of records of one kind that finds any of them by what is typed (lib/record-options.ts). */
export function RecordSelect({ records, value, onChange, activeOnly = false, kept, ...props }: RecordSelectProps) {
  const [search, setSearch] = useState('');
  const options = useRecordOptions(records, { search, chosen: value });
  const data = activeOnly ? activeOptions(options, kept) : options.map(({ value: id, label }) => ({ value: id, label }));
  return (
    <Select
      {...props}
      data={data}
      value={value === null ? null : String(value)}
      onChange={(id) => onChange(id ? Number(id) : null)}
      onSearchChange={setSearch}
      searchable
    />
  );
}
