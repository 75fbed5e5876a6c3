import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { Field } from 'react-final-form';
import { durationText, readDuration } from '../../../shared/duration';
import { errorOf, type Named } from './fields';

const HINT = 'Such as 90, 1:30, 1h 30m or 1.5h';

const same = (a: number | undefined, b: number | undefined) => a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * A duration typed the ways people write one (`90`, `1:30`, `1h 30m`, `1.5h`) into a field that
 * holds whole minutes, the unit the API takes. A text box rather than a number input, which would
 * drop the letters and turn "1h 30m" into 130. Text in none of the forms holds NaN, which the
 * schema refuses with the forms it takes; the hint under the field names them first.
 */
export function DurationField({ name, ...props }: Named<TextInputProps>) {
  return (
    <Field<number | undefined> name={name}>
      {({ input, meta }) => <DurationInput {...props} minutes={input.value} onMinutes={input.onChange} onBlur={input.onBlur} error={errorOf(meta)} />}
    </Field>
  );
}

function DurationInput({
  minutes,
  onMinutes,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange'> & { minutes: number | undefined | ''; onMinutes: (minutes: number | undefined) => void }) {
  const value = minutes === '' ? undefined : minutes;
  const [text, setText] = useState(() => durationText(value));
  // The text as typed while it still says the field's value; a value set from outside (the form
  // emptied after a save, a draft restored) shows as that value.
  const shown = same(readDuration(text), value) ? text : durationText(value);
  return (
    <TextInput
      description={HINT}
      // The hint under the box, so the box lines up with the field beside it (the date).
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      {...props}
      value={shown}
      onChange={(event) => {
        setText(event.currentTarget.value);
        onMinutes(readDuration(event.currentTarget.value));
      }}
      inputMode="text"
      autoComplete="off"
    />
  );
}
