import { Alert, Loader, Radio, Group, Stack, Text } from '@mantine/core';
import { Field } from 'react-final-form';
import { MAILED_KINDS, type MailDelivery, type MailedKind, type NotificationSettings } from '../../../shared/mail';
import { notificationSettingsSchema, type NotificationSettingsPayload } from '../../../shared/schemas/mail';
import { errorOf } from '../../lib/form/fields';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { saveNotificationSettings, useNotificationSettings } from './api';

const validate = validateWith(notificationSettingsSchema);

const KIND_LABELS: Record<MailedKind, string> = {
  assigned: 'A ticket is assigned to me',
  mentioned: 'I am mentioned',
  commented: 'Someone comments on a ticket I follow',
  status: 'A ticket I follow changes status',
};

const DELIVERY_LABELS: Record<MailDelivery, string> = { instant: 'Instant', daily: 'Daily digest', off: 'Off' };

/** One kind's delivery as a radio group: the group's label names the kind, each radio its choice. */
function DeliveryField({ kind }: { kind: MailedKind }) {
  return (
    <Field<string> name={kind}>
      {({ input, meta }) => (
        <Radio.Group label={KIND_LABELS[kind]} value={input.value} onChange={input.onChange} error={errorOf(meta)}>
          <Group mt="xs">
            {(Object.keys(DELIVERY_LABELS) as MailDelivery[]).map((delivery) => (
              <Radio key={delivery} value={delivery} label={DELIVERY_LABELS[delivery]} />
            ))}
          </Group>
        </Radio.Group>
      )}
    </Field>
  );
}

/** Settings → Notifications: how each kind of notification reaches the signed-in person by mail (docs/api.md#mail). */
export function NotificationsTab() {
  const settings = useNotificationSettings();

  if (settings.error) return <Alert color="red" title="Notification settings could not be loaded">{settings.error.message}</Alert>;
  if (!settings.data) return <Loader aria-label="Loading notification settings" />;

  const save: Mutation<NotificationSettingsPayload, NotificationSettings> = {
    send: (values) => saveNotificationSettings(values),
    success: () => ['Notification settings saved'],
    failure: (error) => ['Notification settings not saved', error.message],
    onSuccess: (saved) => void settings.mutate(saved, { revalidate: false }),
  };

  return (
    <MutationForm<NotificationSettingsPayload, NotificationSettings> mutation={save} validate={validate} initialValues={settings.data}>
      {({ submitting }) => (
        <Stack>
          <Text size="sm">
            Choose how each kind of notification reaches you by mail: Instant sends a mail as it happens, Daily digest gathers them into one mail at 07:00 in your time zone, Off sends none.
          </Text>
          {MAILED_KINDS.map((kind) => (
            <DeliveryField key={kind} kind={kind} />
          ))}
          <SubmitButton label="Save notification settings" submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}
