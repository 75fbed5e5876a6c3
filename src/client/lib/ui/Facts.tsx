import { DataList } from '@mantine/core';
import type { ReactNode } from 'react';

/** A record's fields as label and value pairs. */
export function Facts({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <DataList>
      {items.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue>{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}
