import { Alert, Badge, Button, Checkbox, Group, Modal, Paper, Stack, Table, Text, Textarea, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { isoWeekOf } from '../../../shared/iso-week';
import { REJECT_REASON_MAX } from '../../../shared/schemas/timesheets';
import type { TimesheetState, TimesheetWeek } from '../../../shared/types';
import { useAuth } from '../../lib/auth-store';
import { callApi } from '../../lib/endpoints';
import { formatMinutes } from '../../lib/format';
import { useCan } from '../../lib/permissions';
import { usePersonWeek, useWeeks } from './api';

const STATE: Record<TimesheetState, { label: string; color: string }> = {
  open: { label: 'Open', color: 'gray' },
  submitted: { label: 'Submitted', color: 'blue' },
  approved: { label: 'Approved', color: 'green' },
  rejected: { label: 'Rejected', color: 'red' },
};

export function WeekBadge({ state }: { state: TimesheetState }) {
  return (
    <Badge color={STATE[state].color} variant="light" data-testid="week-state">
      {STATE[state].label}
    </Badge>
  );
}

const single = (answer: TimesheetWeek | { items: TimesheetWeek[] } | undefined) => (answer && !('items' in answer) ? answer : undefined);
const many = (answer: TimesheetWeek | { items: TimesheetWeek[] } | undefined) => (answer && 'items' in answer ? answer.items : []);
const key = (w: TimesheetWeek) => `${w.userId}:${w.week}`;
const failure = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong');

/** The signed-in person's own week: its state, the reason it came back, and "Submit week". */
function MyWeek({ week }: { week: string }) {
  const { user } = useAuth();
  const { data, mutate } = usePersonWeek(week, user?.id ?? null);
  const mine = single(data);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  if (!user || !mine) return null;
  const submit = async () => {
    setBusy(true);
    try {
      await mutate(await callApi('POST /timesheets/:userId/:week/submit', { params: { userId: user.id, week } }), { revalidate: false });
      setMessage({ ok: true, text: `Week ${week} submitted` });
    } catch (error) {
      setMessage({ ok: false, text: failure(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" mb="md" data-testid="my-week">
      <Group justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Text fw={600}>Your week {week}</Text>
          <WeekBadge state={mine.state} />
          <Text size="sm" c="dimmed">
            {formatMinutes(mine.minutes)} logged
          </Text>
        </Group>
        {mine.state === 'open' || mine.state === 'rejected' ? (
          <Button onClick={() => void submit()} loading={busy}>
            Submit week
          </Button>
        ) : null}
      </Group>
      {mine.state === 'rejected' && mine.reason ? (
        <Text size="sm" mt="xs">
          Sent back by {mine.decidedByName ?? 'an approver'}: {mine.reason}
        </Text>
      ) : null}
      {mine.state === 'submitted' || mine.state === 'approved' ? (
        <Text size="sm" c="dimmed" mt="xs">
          Time in this week is locked.
        </Text>
      ) : null}
      <div aria-live="polite">
        {message ? (
          <Text size="sm" mt="xs" c={message.ok ? 'green' : 'red'}>
            {message.text}
          </Text>
        ) : null}
      </div>
    </Paper>
  );
}

/** Approvers: every person's week, the waiting ones first, approved or sent back one or many at a time. */
function Approvals({ week }: { week: string }) {
  const { user } = useAuth();
  const { data, mutate } = useWeeks(week, true);
  const weeks = many(data);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [rejecting, setRejecting] = useState<TimesheetWeek[] | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const waiting = weeks.filter((w) => w.state === 'submitted' && w.userId !== user?.id);
  const chosen = waiting.filter((w) => selected.has(key(w)));

  const decide = async (targets: TimesheetWeek[], rejectReason?: string) => {
    setBusy(true);
    try {
      const list = targets.map(({ userId, week: w }) => ({ userId, week: w }));
      const { decided } =
        rejectReason === undefined
          ? await callApi('POST /timesheets/approve', { body: { weeks: list } })
          : await callApi('POST /timesheets/reject', { body: { weeks: list, reason: rejectReason } });
      const what = rejectReason === undefined ? 'approved' : 'sent back';
      setMessage({ ok: decided === targets.length, text: `${decided} of ${targets.length} ${targets.length === 1 ? 'week' : 'weeks'} ${what}` });
      setSelected(new Set());
      setRejecting(null);
      await mutate();
    } catch (error) {
      setMessage({ ok: false, text: failure(error) });
    } finally {
      setBusy(false);
    }
  };
  const confirmReject = () => {
    if (!rejecting) return;
    if (!reason.trim()) return setReasonError('Say why the week is sent back');
    void decide(rejecting, reason.trim());
  };
  const toggle = (w: TimesheetWeek) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(key(w))) next.delete(key(w));
      else next.add(key(w));
      return next;
    });

  return (
    <Paper withBorder p="md" mb="md" data-testid="approvals">
      <Group justify="space-between" mb="xs" wrap="wrap">
        <Title order={2} size="h4">
          Weeks to approve · {week}
        </Title>
        <Group gap="xs">
          <Button size="xs" onClick={() => void decide(chosen)} disabled={!chosen.length} loading={busy}>
            Approve selected
          </Button>
          <Button size="xs" variant="light" color="red" onClick={() => { setReason(''); setReasonError(null); setRejecting(chosen); }} disabled={!chosen.length}>
            Reject selected
          </Button>
        </Group>
      </Group>
      {weeks.length === 0 ? (
        <Text c="dimmed" size="sm">
          Nobody has logged time in this week.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520} type="native" tabIndex={0} role="region" aria-label={`Weeks of ${week}, scrolls sideways`}>
          <Table aria-label={`Weeks of ${week}`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <VisuallyHidden>Select</VisuallyHidden>
                </Table.Th>
                <Table.Th>Person</Table.Th>
                <Table.Th ta="right">Time</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {weeks.map((w) => {
                const decidable = w.state === 'submitted' && w.userId !== user?.id;
                return (
                  <Table.Tr key={key(w)} data-testid="week-row">
                    <Table.Td>
                      {decidable ? <Checkbox aria-label={`Select ${w.userName}`} checked={selected.has(key(w))} onChange={() => toggle(w)} /> : null}
                    </Table.Td>
                    <Table.Th scope="row" fw={400}>
                      {w.userName}
                      {w.state === 'rejected' && w.reason ? (
                        <Text size="xs" c="dimmed">
                          {w.reason}
                        </Text>
                      ) : null}
                    </Table.Th>
                    <Table.Td ta="right">{formatMinutes(w.minutes)}</Table.Td>
                    <Table.Td>
                      <WeekBadge state={w.state} />
                    </Table.Td>
                    <Table.Td>
                      {decidable ? (
                        <Group gap={4} wrap="nowrap">
                          <Button size="compact-sm" onClick={() => void decide([w])} loading={busy} aria-label={`Approve ${w.userName}`}>
                            Approve
                          </Button>
                          <Button size="compact-sm" variant="light" color="red" onClick={() => { setReason(''); setReasonError(null); setRejecting([w]); }} aria-label={`Reject ${w.userName}`}>
                            Reject
                          </Button>
                        </Group>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <div aria-live="polite">
        {message ? (
          <Alert color={message.ok ? 'green' : 'yellow'} mt="xs" p="xs">
            {message.text}
          </Alert>
        ) : null}
      </div>
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title="Send the week back" centered>
        <Stack>
          <Text size="sm">
            {(rejecting ?? []).map((w) => w.userName).join(', ')} · {week}
          </Text>
          <Textarea
            label="Reason"
            description="The person sees it with their week"
            value={reason}
            maxLength={REJECT_REASON_MAX}
            onChange={(event) => { setReason(event.currentTarget.value); setReasonError(null); }}
            error={reasonError}
            required
            autosize
            minRows={2}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRejecting(null)}>
              Cancel
            </Button>
            <Button color="red" onClick={confirmReject} loading={busy}>
              Reject week
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

/** Reports → Timesheet's week view: the person's own week and, for approvers, everyone's. */
export function WeekStates({ monday }: { monday: string }) {
  const week = isoWeekOf(monday);
  const approver = useCan('approveTimesheets');
  return (
    <>
      <MyWeek week={week} />
      {approver ? <Approvals week={week} /> : null}
    </>
  );
}
