import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

/** A search box that reports its text 300 ms after typing stops, so each keystroke is not a request. */
export function SearchField({ label, onSearch, placeholder }: { label: string; onSearch: (q: string) => void; placeholder?: string }) {
  const [value, setValue] = useState('');
  const report = useDebouncedCallback((q: string) => onSearch(q.trim()), 300);
  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      value={value}
      onChange={(event) => {
        setValue(event.currentTarget.value);
        report(event.currentTarget.value);
      }}
    />
  );
}
