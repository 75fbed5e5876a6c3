import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

interface Props {
  label: string;
  onSearch: (q: string) => void;
  placeholder?: string;
  /** The search the page shows now (from the address); Back and pasted links bring it back. */
  value?: string;
}

/** A search box that reports its text 300 ms after typing stops, so each keystroke is not a request. */
export function SearchField({ label, onSearch, placeholder, value = '' }: Props) {
  const [text, setText] = useState(value);
  const [textOf, setTextOf] = useState(value);
  if (textOf !== value) {
    // The address changed (Back, a link, or this box's own search landing): show what it says,
    // keeping the spaces someone is still typing.
    setTextOf(value);
    setText((current) => (current.trim() === value ? current : value));
  }
  const report = useDebouncedCallback((q: string) => onSearch(q.trim()), 300);
  return (
    <TextInput
      type="search"
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        report(event.currentTarget.value);
      }}
    />
  );
}
