import { ActionIcon, Button, Fieldset, Group, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useField, useForm } from 'react-final-form';
import type { CalendarHours } from '../../../shared/sla';
import { errorOf } from '../../lib/form/fields';

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const DAY_OPTIONS = WEEKDAYS.map((label, i) => ({ value: String(i + 1), label }));

/** A list field's error as the fields show errors: its first per-item message (`holidays[2]`'s), when errorOf would show one. */
const firstMessage = (error: unknown): string | undefined => {
  if (typeof error === 'string') return error;
  if (Array.isArray(error)) return error.map(firstMessage).find(Boolean);
  if (error && typeof error === 'object') return Object.values(error).map(firstMessage).find(Boolean);
  return undefined;
};

const LIST_FIELD = { subscription: { value: true, error: true, touched: true, modified: true, submitFailed: true } };
const listError = (meta: Parameters<typeof errorOf>[0]) => errorOf({ ...meta, error: firstMessage(meta.error) });

/** Working hours as spans (weekday, from, to); none means around the clock. */
export function WeeklyHoursField({ name }: { name: string }) {
  const form = useForm();
  const { input, meta } = useField<CalendarHours[]>(name, LIST_FIELD);
  const spans = Array.isArray(input.value) ? input.value : [];
  const shown = listError(meta);
  const add = () => {
    const last = spans[spans.length - 1];
    const day = (last ? Math.min(7, last.day + 1) : 1) as CalendarHours['day'];
    form.change(name, [...spans, { day, from: last?.from ?? '09:00', to: last?.to ?? '17:00' }]);
  };
  const remove = (index: number) => form.change(name, spans.filter((_, i) => i !== index));
  return (
    <Fieldset legend="Working hours" variant="unstyled">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {spans.length ? 'A span whose end is not after its start runs past midnight.' : 'No hours: business time counts around the clock.'}
        </Text>
        {spans.map((span, i) => (
          <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
            <Select
              label={`Day of hours ${i + 1}`}
              data={DAY_OPTIONS}
              value={String(span.day)}
              onChange={(value) => value && form.change(`${name}[${i}].day`, Number(value))}
              allowDeselect={false}
              style={{ flex: 2 }}
            />
            <TextInput label={`From, hours ${i + 1}`} type="time" value={span.from} onChange={(event) => form.change(`${name}[${i}].from`, event.currentTarget.value)} style={{ flex: 1 }} />
            <TextInput label={`To, hours ${i + 1}`} type="time" value={span.to === '24:00' ? '00:00' : span.to} onChange={(event) => form.change(`${name}[${i}].to`, event.currentTarget.value)} style={{ flex: 1 }} />
            <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove hours ${i + 1}`} onClick={() => remove(i)}>
              ×
            </ActionIcon>
          </Group>
        ))}
        {shown ? (
          <Text size="sm" c="red" role="alert">
            {shown}
          </Text>
        ) : null}
        <Group>
          <Button variant="light" size="xs" onClick={add}>
            Add hours
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}

/** Days off, one `YYYY-MM-DD` a line, in the calendar's zone. */
export function HolidaysField({ name }: { name: string }) {
  const { input, meta } = useField<string[]>(name, LIST_FIELD);
  const held = Array.isArray(input.value) ? input.value : [];
  // The text as typed, so a half-typed line is not rewritten under the cursor.
  const [text, setText] = useState(held.join('\n'));
  const shown = listError(meta);
  return (
    <Textarea
      label="Holidays"
      description="One date a line, as 2026-12-25"
      autosize
      minRows={2}
      maxRows={8}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        input.onChange(
          event.currentTarget.value
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        );
      }}
      onBlur={input.onBlur}
      error={shown}
    />
  );
}
