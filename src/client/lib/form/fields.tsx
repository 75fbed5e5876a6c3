import {
  Checkbox,
  NumberInput,
  PasswordInput,
  Select,
  Switch,
  TextInput,
  Textarea,
  type NumberInputProps,
  type PasswordInputProps,
  type SelectProps,
  type TextInputProps,
  type TextareaProps,
} from '@mantine/core';
import { useState } from 'react';
import { Field } from 'react-final-form';
import { centsToText, parseCents } from '../money';

export type Named<P> = Omit<P, 'name' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'error'> & { name: string };

interface FieldMeta {
  touched?: boolean;
  modified?: boolean;
  submitFailed?: boolean;
  error?: unknown;
  submitError?: unknown;
  dirtySinceLastSubmit?: boolean;
}

/**
 * The error a field shows: its validation message after the user has typed in it and left it, or
 * tried to submit, else what the server said about it on the last submit (a name already taken)
 * until it is edited. Focus leaving an untouched field (a page moving focus to its heading) is no
 * reason to complain about it.
 */
export const errorOf = (meta: FieldMeta) => {
  if (((meta.touched && meta.modified) || meta.submitFailed) && typeof meta.error === 'string') return meta.error;
  return !meta.dirtySinceLastSubmit && typeof meta.submitError === 'string' ? meta.submitError : undefined;
};

/** A Mantine text input bound to a react-final-form field. */
export function TextField({ name, ...props }: Named<TextInputProps>) {
  return (
    <Field<string> name={name}>
      {({ input, meta }) => <TextInput {...props} {...input} value={input.value ?? ''} error={errorOf(meta)} />}
    </Field>
  );
}

/** A Mantine password input bound to a react-final-form field. */
export function PasswordField({ name, ...props }: Named<PasswordInputProps>) {
  return (
    <Field<string> name={name}>
      {({ input, meta }) => {
        const error = errorOf(meta);
        // Mantine marks a password field's error with data-invalid only; assistive tech reads aria-invalid.
        return <PasswordInput {...props} {...input} value={input.value ?? ''} error={error} aria-invalid={error ? true : undefined} />;
      }}
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

/** A Mantine select bound to a text field with a fixed list of values. */
export function ChoiceField({ name, ...props }: Named<SelectProps> & { data: Option[] }) {
  return (
    <Field<string> name={name}>
      {({ input, meta }) => (
        <Select {...props} value={input.value || null} onChange={(value) => input.onChange(value ?? undefined)} onBlur={input.onBlur} error={errorOf(meta)} allowDeselect={false} />
      )}
    </Field>
  );
}

/** A multi-line text field. */
export function TextareaField({ name, ...props }: Named<TextareaProps>) {
  return (
    <Field<string> name={name}>
      {({ input, meta }) => <Textarea {...props} {...input} value={input.value ?? ''} error={errorOf(meta)} />}
    </Field>
  );
}

/** A date (YYYY-MM-DD) field using the browser's date picker; an empty box means null. */
export function DateField({ name, ...props }: Named<TextInputProps>) {
  return (
    <Field<string | null> name={name} parse={(value) => value || null} format={(value) => value ?? ''}>
      {({ input, meta }) => <TextInput {...props} {...input} value={input.value ?? ''} type="date" error={errorOf(meta)} />}
    </Field>
  );
}

/**
 * A number field. It takes whatever number is typed, fractions and signs included, and never
 * clamps it to min or max: the schema says what is wrong next to the field instead of the value
 * quietly becoming another one.
 */
export function NumberField({ name, ...props }: Named<NumberInputProps>) {
  return (
    <Field<number | undefined> name={name}>
      {({ input, meta }) => (
        <NumberInput
          {...props}
          value={input.value ?? ''}
          onChange={(value) => input.onChange(value === '' ? undefined : Number(value))}
          onBlur={input.onBlur}
          error={errorOf(meta)}
          clampBehavior="none"
        />
      )}
    </Field>
  );
}

const MONEY_FORMAT = 'Enter an amount such as 12.50';

/**
 * Money typed as currency with two decimals ("12.50") into a field that holds integer cents
 * (1250), the unit the API uses. The text is kept as typed while the field has focus.
 */
export function MoneyField({ name, ...props }: Named<NumberInputProps>) {
  return (
    <Field<number | undefined> name={name} validate={(value) => (Number.isNaN(value) ? MONEY_FORMAT : undefined)}>
      {({ input, meta }) => <MoneyInput {...props} cents={input.value} onCents={input.onChange} onBlur={input.onBlur} error={errorOf(meta)} />}
    </Field>
  );
}

function MoneyInput({ cents, onCents, ...props }: Omit<NumberInputProps, 'value' | 'onChange'> & { cents: number | undefined; onCents: (cents: number | undefined) => void }) {
  const [text, setText] = useState(() => (cents === undefined || Number.isNaN(cents) ? '' : centsToText(cents)));
  return (
    <NumberInput
      {...props}
      value={text}
      onChange={(value) => {
        const typed = String(value);
        setText(typed);
        onCents(typed.trim() === '' ? undefined : (parseCents(typed) ?? Number.NaN));
      }}
      decimalScale={2}
      fixedDecimalScale
      thousandSeparator=","
      leftSection="$"
      hideControls
      inputMode="decimal"
      clampBehavior="none"
    />
  );
}

/** An on/off switch. */
/** A checkbox for a yes/no choice made with the form, such as mailing a comment as well. */
export function CheckboxField({ name, label, description }: { name: string; label: string; description?: string }) {
  return (
    <Field<boolean> name={name} type="checkbox">
      {({ input }) => <Checkbox checked={input.checked ?? false} onChange={input.onChange} label={label} description={description} />}
    </Field>
  );
}

export function SwitchField({ name, label }: { name: string; label: string }) {
  return (
    <Field<boolean> name={name} type="checkbox">
      {({ input }) => <Switch checked={input.checked ?? false} onChange={input.onChange} label={label} />}
    </Field>
  );
}
