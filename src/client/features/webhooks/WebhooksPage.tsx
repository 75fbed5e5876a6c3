import { Alert, Badge, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { WEBHOOK_FAILURE_LIMIT, type CreatedWebhook, type Webhook, type WebhookPayload } from '../../../shared/schemas/webhooks';
import type { Page } from '../../../shared/types';
import { ApiError } from '../../lib/api';
import { useWebhookParams } from '../../lib/addresses/webhooks';
import { changedFields } from '../../lib/form/changes';
import { useAction, type Mutation } from '../../lib/form/use-mutation';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../../lib/permissions';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { Facts } from '../../lib/ui/Facts';
import { FormModal } from '../../lib/ui/FormModal';
import { NoAccess } from '../../lib/ui/NoAccess';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { useWebhooks, webhookApi } from './api';
import { DeliveryLog } from './DeliveryLog';
import { SecretNotice } from './SecretNotice';
import { BLANK_WEBHOOK, WebhookForm, valuesOf } from './WebhookForm';

/** The provider turned the hook off itself: it is off and its last deliveries all failed. */
const turnedOff = (hook: Webhook) => !hook.active && hook.consecutiveFailures >= WEBHOOK_FAILURE_LIMIT;

function HookStatus({ hook }: { hook: Webhook }) {
  if (hook.active) return <Badge color="green" variant="light">Active</Badge>;
  return turnedOff(hook) ? <Badge color="red" variant="light">Turned off</Badge> : <Badge color="gray" variant="light">Off</Badge>;
}

const COLUMNS: Column<Webhook>[] = [
  { key: 'url', label: 'Address', render: (hook) => <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>{hook.url}</Text> },
  { key: 'events', label: 'Events', visibleFrom: 'sm', render: (hook) => <Text size="sm" lineClamp={2}>{hook.events.join(', ')}</Text> },
  { key: 'active', label: 'Status', render: (hook) => <HookStatus hook={hook} /> },
  { key: 'failures', label: 'Failures', align: 'right', visibleFrom: 'xs', render: (hook) => hook.consecutiveFailures },
];

function TurnedOffNotice({ hook }: { hook: Webhook }) {
  if (!turnedOff(hook)) return null;
  return (
    <Alert color="red" title="Turned off after repeated failures">
      <Text size="sm">
        The last {hook.consecutiveFailures} deliveries all failed, so no more are sent. See the errors below, fix the receiver, then turn the hook on again
        (Active) and send a test event.
      </Text>
    </Alert>
  );
}

/** Only the fields the edit changed go to PATCH webhooks/{id}. */
const changesOf = (hook: Webhook, values: WebhookPayload) => {
  const loaded = valuesOf(hook);
  const changed = changedFields(loaded, values) as (keyof WebhookPayload)[];
  return Object.fromEntries(changed.map((field) => [field, values[field]]));
};

function Webhooks() {
  const [{ id, page = 1 }, setParams] = useWebhookParams();
  const hooks = useWebhooks();
  const [adding, addModal] = useDisclosure(false);
  const [confirming, confirmModal] = useDisclosure(false);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const open = hooks.data?.items.find((hook) => hook.id === id);
  const list: Page<Webhook> | undefined = hooks.data && { items: hooks.data.items, total: hooks.data.items.length, page: 1, pageSize: Math.max(1, hooks.data.items.length) };
  // An upstream API without webhooks (UPSTREAM_API_URL): nothing to list or add.
  const unavailable = hooks.error instanceof ApiError && hooks.error.status === 404;
  const addButton = unavailable ? undefined : <Button onClick={addModal.open}>Add webhook</Button>;

  const closeAdd = () => {
    addModal.close();
    setCreated(null);
  };

  const create: Mutation<WebhookPayload, CreatedWebhook> = {
    send: (values) => webhookApi.create(values),
    success: (hook) => ['Webhook added', hook.url],
    failure: 'Webhook not added',
    onSuccess: async (hook) => {
      // The dialog stays open on the secret: it is shown this once.
      setCreated(hook);
      await hooks.mutate();
    },
  };

  const save = (hook: Webhook): Mutation<WebhookPayload, Webhook> => ({
    send: (values) => webhookApi.update(hook.id, changesOf(hook, values)),
    success: (updated) => ['Webhook saved', updated.url],
    failure: 'Webhook not saved',
    onSuccess: () => hooks.mutate(),
  });

  const remove = useAction<Webhook, null>({
    send: (hook) => webhookApi.remove(hook.id),
    success: (_, hook) => ['Webhook deleted', hook.url],
    failure: 'Webhook not deleted',
    onSuccess: async () => {
      confirmModal.close();
      setParams({ id: undefined, page: undefined });
      await hooks.mutate();
    },
  });

  return (
    <>
      <PageTitle title="Webhooks" description="Events sent to other systems as they happen, signed with each hook's secret" actions={addButton} />
      {unavailable ? (
        <Text c="dimmed">Webhooks are not available with this server.</Text>
      ) : (
        <DataTable
          label="Webhooks"
          columns={COLUMNS}
          page={list}
          error={hooks.error}
          onRetry={() => void hooks.mutate()}
          onPageChange={() => undefined}
          onOpen={(hook) => setParams({ id: hook.id, page: undefined })}
          selectedId={id}
          empty={{ title: 'No webhooks yet', description: 'Add one to send ticket, statement and other events to another system.', action: addButton }}
        />
      )}
      <FormModal opened={adding} onClose={closeAdd} title={created ? 'Webhook added' : 'Add webhook'} size="lg">
        {created ? (
          <SecretNotice secret={created.secret} onDone={closeAdd} />
        ) : (
          <WebhookForm initialValues={BLANK_WEBHOOK} submitLabel="Add webhook" mutation={create} creating />
        )}
      </FormModal>
      <RecordDrawer opened={id !== undefined} onClose={() => setParams({ id: undefined, page: undefined })} title={open?.url ?? 'Webhook'} keys={['id', 'page']}>
        {open ? (
          <Stack>
            <TurnedOffNotice hook={open} />
            <Facts
              items={[
                ['Status', <HookStatus hook={open} />],
                ['Failures in a row', String(open.consecutiveFailures)],
                ['Created', formatDateTime(open.createdAt)],
              ]}
            />
            <WebhookForm key={JSON.stringify(valuesOf(open))} initialValues={valuesOf(open)} submitLabel="Save changes" mutation={save(open)} />
            <Group justify="flex-start">
              <Button color="red" variant="light" onClick={confirmModal.open}>
                Delete
              </Button>
            </Group>
            <Divider />
            <DeliveryLog hookId={open.id} page={page} onPageChange={(next) => setParams({ page: next > 1 ? next : undefined })} />
          </Stack>
        ) : hooks.data ? (
          <Text>This webhook no longer exists.</Text>
        ) : null}
      </RecordDrawer>
      <ConfirmDialog
        opened={confirming && open !== undefined}
        onClose={confirmModal.close}
        title="Delete webhook?"
        onConfirm={() => open && void remove.run(open)}
        busy={remove.busy}
      >
        <Text>
          Delete the hook to <strong style={{ wordBreak: 'break-all' }}>{open?.url}</strong>? Nothing more is sent to it, and its delivery log goes with it.
        </Text>
      </ConfirmDialog>
    </>
  );
}

/** `/webhooks/`: the hooks and their deliveries, for admins; everyone else is told the page is not theirs. */
export function WebhooksPage() {
  return useCan('manageWebhooks') ? <Webhooks /> : <NoAccess who="administrators" />;
}

