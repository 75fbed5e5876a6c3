import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useField } from 'react-final-form';
import { errorOf } from './fields';

/** The zones this browser knows, with the field's own even if it does not. */
const useZones = (current: string | undefined) =>
  useMemo(() => {
    const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
    return current && !zones.includes(current) ? [current, ...zones] : zones;
  }, [current]);

/** An IANA time zone, searched by typing part of its name. */
export function TimeZoneField({ name, label, description }: { name: string; label: string; description?: string }) {
  const { input, meta } = useField<string>(name);
  const zones = useZones(input.value || undefined);
  return (
    <Select
      label={label}
      description={description}
      data={zones}
      searchable
      value={input.value || null}
      onChange={(value) => input.onChange(value ?? undefined)}
      onBlur={input.onBlur}
      error={errorOf(meta)}
      allowDeselect={false}
      nothingFoundMessage="No such time zone"
    />
  );
}
