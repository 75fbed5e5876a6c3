import { Stack } from '@mantine/core';
import { createWebhookSchema, updateWebhookSchema, type Webhook, type WebhookPayload } from '../../../shared/schemas/webhooks';
import { SwitchField, TextField } from '../../lib/form/fields';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { EventsField } from './EventsField';

export const BLANK_WEBHOOK: WebhookPayload = { url: '', events: [], active: true };

/** The form's values for a hook: only what PATCH webhooks/{id} takes. */
export const valuesOf = ({ url, events, active }: Webhook): WebhookPayload => ({ url, events: [...events], active });

interface WebhookFormProps<R> {
  initialValues: WebhookPayload;
  submitLabel: string;
  mutation: Mutation<WebhookPayload, R>;
  /** A new hook needs every field; an edit sends what changed. */
  creating?: boolean;
}

/** Address, events and on/off of a hook, checked by the schema the provider checks it with. */
export function WebhookForm<R>({ initialValues, submitLabel, mutation, creating = false }: WebhookFormProps<R>) {
  return (
    <MutationForm<WebhookPayload, R> mutation={mutation} validate={validateWith(creating ? createWebhookSchema : updateWebhookSchema)} initialValues={initialValues}>
      {({ submitting }) => (
        <Stack>
          <TextField name="url" label="Address" description="Where the events are POSTed; https://" type="url" placeholder="https://example.com/hooks/desk" required={creating} />
          <EventsField />
          <SwitchField name="active" label="Active" />
          <SubmitButton label={submitLabel} submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}
