import { Field } from 'react-final-form';
import { RecordSelect, type RecordSelectProps } from '../ui/RecordSelect';
import { errorOf, type Named } from './fields';

/** A record select bound to a field holding the record's id, or null for none. */
export function RecordSelectField({ name, ...props }: Named<RecordSelectProps>) {
  return (
    <Field<number | null> name={name}>
      {({ input, meta }) => <RecordSelect {...props} value={input.value || null} onChange={input.onChange} onBlur={input.onBlur} error={errorOf(meta)} clearable />}
    </Field>
  );
}
