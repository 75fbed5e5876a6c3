import { Badge, Button, Group, Paper, Text } from '@mantine/core';
import { useState } from 'react';
import type { ApiToken } from '../../../shared/types';
import { ApiError } from '../../lib/api';
import { callApi } from '../../lib/endpoints';
import { formatDateTime } from '../../lib/format';
import { notify } from '../../lib/toast/notify';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';

const ACCESS_LABELS: Record<ApiToken['access'], string> = { read: 'Read only', write: 'Read and write' };

/** One token in Settings → API tokens: what it may do, its dates, its owner in the admins' view, and Remove. */
export function ApiTokenRow({ token, onRemoved }: { token: ApiToken; onRemoved: () => Promise<unknown> }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  // When the row was shown: an open tab does not relabel a token the moment it runs out.
  const [shownAt] = useState(Date.now);
  const expired = Date.parse(token.expiresAt) <= shownAt;
  const owner = token.owner ? `${token.owner.firstName} ${token.owner.surname}` : null;

  const remove = async () => {
    setBusy(true);
    try {
      await callApi('DELETE /auth/api-tokens/:id', { params: { id: token.id } });
      setConfirming(false);
      notify.success('API token removed');
      await onRemoved();
    } catch (error) {
      notify.error('API token not removed', error instanceof ApiError ? error.message : 'Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="sm" component="li" aria-label={token.name}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
              {token.name}
            </Text>
            <Badge variant="light" color={token.access === 'write' ? 'orange' : 'blue'}>
              {ACCESS_LABELS[token.access]}
            </Badge>
            {expired ? (
              <Badge variant="light" color="red">
                Expired
              </Badge>
            ) : null}
          </Group>
          {owner ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Owner: {owner} ({token.owner?.email})
            </Text>
          ) : null}
          <Text size="sm" c="dimmed">
            Created {formatDateTime(token.createdAt)} · {expired ? 'Expired' : 'Expires'} {formatDateTime(token.expiresAt)} ·{' '}
            {token.lastUsedAt ? `Last used ${formatDateTime(token.lastUsedAt)}` : 'Never used'}
          </Text>
        </div>
        <Button variant="default" color="red" size="xs" onClick={() => setConfirming(true)} aria-label={`Remove ${token.name}`}>
          Remove
        </Button>
      </Group>
      <ConfirmDialog opened={confirming} onClose={() => setConfirming(false)} title="Remove API token" confirmLabel="Remove token" onConfirm={() => void remove()} busy={busy}>
        <Text>
          Remove <strong>{token.name}</strong>
          {owner ? ` of ${owner}` : ''}? Every script or system using it is refused from then on.
        </Text>
      </ConfirmDialog>
    </Paper>
  );
}
