import { ActionIcon, Button, Group, Indicator, Popover, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isoWeekMonday } from '../../../shared/iso-week';
import type { Notification } from '../../../shared/types';
import { callApi } from '../endpoints';
import { formatDateTime } from '../format';
import { showBeforeAnswer } from '../optimistic';
import { notify } from '../toast/notify';
import { useApi } from '../use-api';
import { links } from '../links';

type SlaKind = 'sla_warning' | 'sla_breached';
const isSlaNotice = (kind: Notification['kind']): kind is SlaKind => kind === 'sla_warning' || kind === 'sla_breached';

const WHAT: Record<Exclude<Notification['kind'], SlaKind>, string> = {
  assigned: 'assigned you',
  mentioned: 'mentioned you in',
  commented: 'commented on',
  status: 'changed the status of',
  timesheet_approved: 'approved your week',
  timesheet_rejected: 'sent back your week',
  // No actor: the provider turns a hook off after 20 failed deliveries in a row (docs/api.md#webhooks).
  webhook_disabled: 'turned off a failing webhook:',
};

/**
 * A notice as one sentence. Service-level notices have no actor and their title already names the
 * ticket ("First response due soon: #12 Printer jam"), docs/api.md#service-levels.
 */
const sentenceOf = (item: Notification) =>
  isSlaNotice(item.kind)
    ? `Service level: ${item.title}`
    : `${item.actorName ?? 'Someone'} ${WHAT[item.kind]} ${item.entity === 'ticket' ? `#${item.entityId} ` : ''}${item.title}`;

const BellIcon = () => (
  <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
    <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
    <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
  </svg>
);

/** The header's bell: the unread count (announced politely) and the newest notifications. */
export function Bell() {
  const [opened, setOpened] = useState(false);
  const navigate = useNavigate();
  const list = useApi('GET /notifications', { query: { page: 1, pageSize: 20 } });
  const unread = list.data?.unread ?? 0;
  const label = unread === 1 ? '1 unread notification' : `${unread} unread notifications`;

  // The notices show as read, and the count drops, on the next frame; a refusal puts them back and says so.
  const markRead = async (ids?: number[]) => {
    const request = callApi('POST /notifications/read', { body: ids ? { ids } : {} });
    const at = new Date().toISOString();
    const shown = showBeforeAnswer(list, request, {
      now: (page) => {
        const marked = page.items.filter((item) => !item.readAt && (!ids || ids.includes(item.id)));
        return {
          ...page,
          items: page.items.map((item) => (marked.includes(item) ? { ...item, readAt: at } : item)),
          unread: ids ? Math.max(0, page.unread - marked.length) : 0,
        };
      },
      answered: (page, { unread: left }) => ({ ...page, unread: left }),
    });
    try {
      await request;
    } catch (error) {
      notify.error(ids ? 'Notification not marked read' : 'Notifications not marked read', error instanceof Error ? error.message : String(error));
    }
    await shown;
    await list.mutate();
  };
  const open = (item: Notification) => {
    setOpened(false);
    if (item.entity === 'ticket') navigate(links.ticket(item.entityId, item.commentId));
    // A hook turned off after its failures: its drawer says why and lists the failed deliveries.
    if (item.entity === 'webhook') navigate(links.webhook(item.entityId));
    // A timesheet notice's title starts with its week (`2026-W47`).
    const monday = item.entity === 'timesheet' ? isoWeekMonday(item.title.slice(0, 8)) : undefined;
    if (monday) navigate(links.timesheetWeek(monday));
    if (!item.readAt) void markRead([item.id]);
  };

  return (
    <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} offset={4}>
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} trapFocus returnFocus withArrow>
        <Popover.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`Notifications, ${label}`} onClick={() => setOpened((o) => !o)} data-testid="bell">
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
        <VisuallyHidden aria-live="polite" data-testid="bell-announcement">
          {list.data ? label : ''}
        </VisuallyHidden>
        {/* An open record drawer holds the page still by cancelling the wheel and touch moves that
            reach the document from outside it; the list scrolls here, so they end here. */}
        <Popover.Dropdown onWheel={(event) => event.stopPropagation()} onTouchMove={(event) => event.stopPropagation()}>
          <Group justify="space-between" mb="xs">
            <Text fw={600} id="notifications-heading">
              Notifications
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={() => void markRead()} disabled={unread === 0}>
              Mark all read
            </Button>
          </Group>
          {list.data && list.data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              Nothing yet.
            </Text>
          ) : null}
          <Stack gap={4} component="ul" aria-labelledby="notifications-heading" style={{ listStyle: 'none', padding: 0, margin: 0, maxHeight: 360, overflowY: 'auto' }}>
            {(list.data?.items ?? []).map((item) => (
              <li key={item.id}>
                <UnstyledButton onClick={() => open(item)} p={6} w="100%" style={{ borderRadius: 4 }} data-testid="notification">
                  <Text size="sm" fw={item.readAt ? 400 : 700}>
                    {sentenceOf(item)}
                    {item.readAt ? null : <VisuallyHidden> (unread)</VisuallyHidden>}
                  </Text>
                  <Text size="xs" c="dimmed" component="time" dateTime={item.at}>
                    {formatDateTime(item.at)}
                  </Text>
                </UnstyledButton>
              </li>
            ))}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
