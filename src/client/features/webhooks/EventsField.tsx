import { Checkbox, SimpleGrid } from '@mantine/core';
import { Field } from 'react-final-form';
import { WEBHOOK_EVENTS } from '../../../shared/schemas/webhooks';
import { errorOf } from '../../lib/form/fields';

/** The events a hook is sent, as one checkbox per event of docs/api.md#webhook-events (names as the receiver sees them). */
export function EventsField() {
  return (
    <Field<string[]> name="events">
      {({ input, meta }) => (
        <Checkbox.Group label="Events" description="What the hook is sent" value={input.value || []} onChange={input.onChange} error={errorOf({ ...meta, modified: true })}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
            {WEBHOOK_EVENTS.map((event) => (
              <Checkbox key={event} value={event} label={<code>{event}</code>} onBlur={input.onBlur} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      )}
    </Field>
  );
}
