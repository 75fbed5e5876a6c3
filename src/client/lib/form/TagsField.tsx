import { TagsInput, type TagsInputProps } from '@mantine/core';
import { Field } from 'react-final-form';
import { errorOf, type Named } from './fields';

/** A field's error when the schema checks each item of a list: the first item's message. */
const firstMessage = (error: unknown): unknown => (Array.isArray(error) ? error.find((item) => typeof item === 'string' && item) : error);

/**
 * A list of short texts (mail domains) bound to a react-final-form field: typed and confirmed with
 * Enter or a comma, removed with Backspace or each tag's button.
 */
export function TagsField({ name, ...props }: Named<TagsInputProps>) {
  return (
    <Field<string[]> name={name}>
      {({ input, meta }) => (
        <TagsInput
          {...props}
          value={input.value || []}
          onChange={input.onChange}
          onFocus={input.onFocus}
          onBlur={input.onBlur}
          splitChars={[',', ' ', ';']}
          acceptValueOnBlur
          clearable
          error={errorOf({ ...meta, error: firstMessage(meta.error), submitError: firstMessage(meta.submitError) })}
        />
      )}
    </Field>
  );
}
