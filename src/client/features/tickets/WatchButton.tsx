import { Button, Group, Text } from '@mantine/core';
import { callApi } from '../../lib/endpoints';
import { useAction } from '../../lib/form/use-mutation';
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
  const toggle = useAction<boolean, null>({
    send: (watch) => callApi(watch ? 'PUT /tickets/:id/watchers/me' : 'DELETE /tickets/:id/watchers/me', { params: { id: ticketId } }),
    success: (_result, watch) => (watch ? [`Watching #${ticketId}`, 'You will hear of its comments and status changes.'] : [`Stopped watching #${ticketId}`]),
    failure: 'Watching not changed',
    onSuccess: () => watchers.mutate(),
  });
  const names = (watchers.data?.items ?? []).map((item) => item.name);
  const summary = names.length === 0 ? 'Nobody watches this ticket.' : `Watched by ${watcherNames(names)}`;
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="compact-sm"
        variant={watching ? 'light' : 'default'}
        onClick={() => void toggle.run(!watching)}
        loading={toggle.busy}
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
