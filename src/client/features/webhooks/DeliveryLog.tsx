import { Badge, Box, Button, Center, Group, Loader, Pagination, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { DeliveryStatus, WebhookDelivery } from '../../../shared/schemas/webhooks';
import { useAction } from '../../lib/form/use-mutation';
import { formatDateTime } from '../../lib/format';
import { LoadError } from '../../lib/ui/LoadError';
import { DELIVERY_PAGE_SIZE, useDeliveries, webhookApi } from './api';

const STATUS_COLORS: Record<DeliveryStatus, string> = { queued: 'blue', delivered: 'green', failed: 'red' };

interface DeliveryLogProps {
  hookId: number;
  page: number;
  onPageChange: (page: number) => void;
}

/** A hook's deliveries, newest first, each failed one with Retry; "Send test event" adds one. */
export function DeliveryLog({ hookId, page, onPageChange }: DeliveryLogProps) {
  const log = useDeliveries(hookId, page);
  const retry = useAction<WebhookDelivery, WebhookDelivery>({
    send: (delivery) => webhookApi.retry(hookId, delivery.id),
    success: (_, delivery) => ['Delivery queued again', delivery.event],
    failure: 'Delivery not retried',
    onSuccess: () => log.mutate(),
  });
  const test = useAction<number, WebhookDelivery>({
    send: (id) => webhookApi.test(id),
    success: () => ['Test event sent', 'webhook.test is on its way'],
    failure: 'Test event not sent',
    onSuccess: () => log.mutate(),
  });
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / log.data.pageSize)) : 1;

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          Deliveries
        </Title>
        <Button variant="light" size="xs" onClick={() => void test.run(hookId)} loading={test.busy} disabled={test.busy}>
          Send test event
        </Button>
      </Group>
      {log.error && !log.data ? <LoadError title="Could not load the deliveries" error={log.error} onRetry={() => void log.mutate()} /> : null}
      {!log.data && !log.error ? (
        <Center py="md" aria-busy="true">
          <Loader size="sm" aria-label="Loading deliveries" />
        </Center>
      ) : null}
      {log.data && log.data.total === 0 ? <Text c="dimmed">Nothing sent yet. Send a test event to try the address.</Text> : null}
      {log.data && log.data.items.length > 0 ? (
        // Wider than a drawer: it scrolls sideways, and takes focus so the keyboard can scroll it too.
        <Box tabIndex={0} role="region" aria-label="Deliveries, scrolling sideways" style={{ overflowX: 'auto' }}>
          <Table verticalSpacing="xs" aria-label="Deliveries" miw={820} style={{ whiteSpace: 'nowrap' }}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th ta="right">Attempt</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Response</Table.Th>
                <Table.Th ta="right">Took</Table.Th>
                <Table.Th>Error</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.data.items.map((delivery) => (
                <Table.Tr key={delivery.id}>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {delivery.event}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" component="time" dateTime={delivery.at}>
                      {formatDateTime(delivery.at)}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{delivery.attempt}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[delivery.status]} variant="light" style={{ minWidth: 'max-content' }}>
                      {delivery.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{delivery.responseStatus ?? '—'}</Table.Td>
                  <Table.Td ta="right">{delivery.responseMs === null ? '—' : `${delivery.responseMs} ms`}</Table.Td>
                  <Table.Td>
                    <Text size="sm" maw={320} style={{ whiteSpace: 'normal' }}>
                      {delivery.error ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {delivery.status === 'failed' ? (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => void retry.run(delivery)}
                        disabled={retry.busy}
                        aria-label={`Retry ${delivery.event} of ${formatDateTime(delivery.at)}`}
                      >
                        Retry
                      </Button>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      ) : null}
      {pages > 1 ? <Pagination total={pages} value={page} onChange={onPageChange} size="sm" siblings={1} boundaries={1} /> : null}
      {log.data ? <Text size="xs" c="dimmed">{`${log.data.total} deliveries, ${DELIVERY_PAGE_SIZE} a page`}</Text> : null}
    </Stack>
  );
}
