import {
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
import { Field } from 'react-final-form';

type Named<P> = Omit<P, 'name' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'error'> & { name: string };

/** The error a field shows: after the user has left it, or after a submit attempt. */
const errorOf = (meta: { touched?: boolean; submitFailed?: boolean; error?: unknown }) =>
  (meta.touched || meta.submitFailed) && typeof meta.error === 'string' ? meta.error : undefined;

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

/** A Mantine select bound to a field holding a record id (number) or null for none. */
export function IdSelectField({ name, ...props }: Named<SelectProps> & { data: Option[] }) {
  return (
    <Field<number | null> name={name}>
      {({ input, meta }) => (
        <Select
          {...props}
          value={input.value ? String(input.value) : null}
          onChange={(value) => input.onChange(value ? Number(value) : null)}
          onBlur={input.onBlur}
          error={errorOf(meta)}
          searchable
          clearable
        />
      )}
    </Field>
  );
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

/** A whole-number field. */
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
          allowDecimal={false}
        />
      )}
    </Field>
  );
}

/** An on/off switch. */
export function SwitchField({ name, label }: { name: string; label: string }) {
  return (
    <Field<boolean> name={name} type="checkbox">
      {({ input }) => <Switch checked={input.checked ?? false} onChange={input.onChange} label={label} />}
    </Field>
  );
}
