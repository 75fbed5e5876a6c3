import { Alert, Badge, Button, Group, Loader, Pagination, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { MAIL_STATUSES, type MailStatus } from '../../../shared/mail';
import { useApi } from '../../lib/use-api';

const PAGE_SIZE = 25;
const STATUS_COLOR: Record<MailStatus, string> = { queued: 'blue', sent: 'green', failed: 'red' };

/** The plain-text body of one mail, read only when its row is opened (bodies are kept 30 days, docs/api.md#mail). */
function MailBody({ id }: { id: number }) {
  const detail = useApi('GET /settings/mail/:id', { params: { id } });
  if (detail.error) return <Alert color="red">{detail.error.message}</Alert>;
  if (!detail.data) return <Loader size="sm" aria-label="Loading mail body" />;
  return detail.data.text === null ? <Text c="dimmed">Body no longer kept</Text> : <Text component="pre" style={{ whiteSpace: 'pre-wrap' }}>{detail.data.text}</Text>;
}

/** Settings → Mail log (admins): every mail the app queued, its status and its last error. */
export function MailLogTab() {
  const [status, setStatus] = useState<MailStatus | null>(null);
  const [page, setPage] = useState(1);
  const [opened, setOpened] = useState<number | null>(null);
  const log = useApi('GET /settings/mail', { query: { status, page, pageSize: PAGE_SIZE } });

  return (
    <Stack>
      <Select
        label="Status"
        placeholder="Any status"
        clearable
        data={MAIL_STATUSES.map((value) => ({ value, label: value }))}
        value={status}
        onChange={(value) => {
          setStatus(MAIL_STATUSES.find((s) => s === value) ?? null);
          setPage(1);
        }}
      />
      {log.error && <Alert color="red" title="Mail log could not be loaded">{log.error.message}</Alert>}
      {!log.data && !log.error && <Loader aria-label="Loading mail log" />}
      {log.data && log.data.items.length === 0 && <Text c="dimmed">No mail yet</Text>}
      {log.data && log.data.items.length > 0 && (
        <Table.ScrollContainer minWidth={700}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>To</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Last error</Table.Th>
                <Table.Th>Sent at</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.data.items.map((mail) => (
                <Table.Tr key={mail.id}>
                  <Table.Td>{mail.to}</Table.Td>
                  <Table.Td>
                    <Button variant="subtle" size="compact-sm" aria-expanded={opened === mail.id} onClick={() => setOpened(opened === mail.id ? null : mail.id)}>
                      {mail.subject}
                    </Button>
                    {opened === mail.id && <MailBody id={mail.id} />}
                  </Table.Td>
                  <Table.Td>{mail.kind}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[mail.status]} variant="light">
                      {mail.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{mail.attempts}</Table.Td>
                  <Table.Td>{mail.lastError ?? ''}</Table.Td>
                  <Table.Td>{mail.sentAt ? new Date(mail.sentAt).toLocaleString() : ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {log.data && log.data.total > PAGE_SIZE && (
        <Group justify="center">
          <Pagination total={Math.ceil(log.data.total / PAGE_SIZE)} value={page} onChange={setPage} aria-label="Mail log pages" />
        </Group>
      )}
    </Stack>
  );
}
