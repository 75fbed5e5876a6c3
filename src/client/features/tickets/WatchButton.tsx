import { Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { callApi } from '../../lib/endpoints';
import { useAuth } from '../../lib/auth-store';
import { fullName } from '../../lib/format';
import { showBeforeAnswer } from '../../lib/optimistic';
import { notify } from '../../lib/toast/notify';
import { useApi } from '../../lib/use-api';

/** "Ann Admin", "Ann Admin and Bob Bell", "Ann Admin, Bob Bell and 3 others". */
const watcherNames = (names: string[]) => {
  if (names.length <= 2) return names.join(' and ');
  const rest = names.length - 2;
  return `${names.slice(0, 2).join(', ')} and ${rest === 1 ? '1 other' : `${rest} others`}`;
};

/**
 * Watch or Unwatch a ticket (docs/architecture.md#notifications-watchers-and-mentions): a watcher
 * hears of its comments and status changes. Beside it, who watches it now.
 */
export function WatchButton({ ticketId }: { ticketId: number }) {
  const watchers = useApi('GET /tickets/:id/watchers', { params: { id: ticketId } });
  const watching = watchers.data?.watching ?? false;
  const { user } = useAuth();
  const [busy, setBusy] = useState(false);
  // The button and the names beside it show the new state on the next frame; a refusal puts the old one back.
  const toggle = async (watch: boolean) => {
    if (busy || !user) return;
    setBusy(true);
    const request = callApi(watch ? 'PUT /tickets/:id/watchers/me' : 'DELETE /tickets/:id/watchers/me', { params: { id: ticketId } });
    const shown = showBeforeAnswer(watchers, request, {
      now: (list) => ({
        watching: watch,
        items: watch ? [...list.items.filter((item) => item.userId !== user.id), { userId: user.id, name: fullName(user) }] : list.items.filter((item) => item.userId !== user.id),
      }),
    });
    try {
      await request;
      if (watch) notify.success(`Watching #${ticketId}`, 'You will hear of its comments and status changes.');
      else notify.success(`Stopped watching #${ticketId}`);
    } catch (error) {
      notify.error('Watching not changed', error instanceof Error ? error.message : String(error));
    } finally {
      await shown;
      setBusy(false);
    }
    await watchers.mutate();
  };
  const names = (watchers.data?.items ?? []).map((item) => item.name);
  const summary = names.length === 0 ? 'Nobody watches this ticket.' : `Watched by ${watcherNames(names)}`;
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="compact-sm"
        variant={watching ? 'light' : 'default'}
        onClick={() => void toggle(!watching)}
        aria-busy={busy || undefined}
        disabled={!watchers.data}
        aria-describedby={`watchers-${ticketId}`}
        data-testid="watch-button"
      >
        {watching ? 'Unwatch' : 'Watch'}
      </Button>
      {/* On a phone the button alone, beside who reported the ticket; the names stay its description. */}
      <Text size="xs" c="dimmed" id={`watchers-${ticketId}`} title={names.join(', ')} lineClamp={1} visibleFrom="sm" data-testid="watchers">
        {watchers.data ? summary : ''}
      </Text>
    </Group>
  );
}
