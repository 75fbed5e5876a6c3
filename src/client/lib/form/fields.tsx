import { PasswordInput, TextInput, type PasswordInputProps, type TextInputProps } from '@mantine/core';
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
      {({ input, meta }) => <PasswordInput {...props} {...input} value={input.value ?? ''} error={errorOf(meta)} />}
    </Field>
  );
}
