import { Alert, Button, Group, SimpleGrid, Stack } from '@mantine/core';
import { useRef, useState, type KeyboardEvent } from 'react';
import { commentSchema, updateTimeEntrySchema, type TicketStatus } from '../../../shared/schemas/tickets';
import type { Ticket, TicketComment } from '../../../shared/types';
import { ApiError } from '../../lib/api';
import { DurationField } from '../../lib/form/DurationField';
import { CheckboxField, ChoiceField } from '../../lib/form/fields';
import { MentionTextareaField } from '../../lib/form/MentionTextareaField';
import { MutationForm } from '../../lib/form/MutationForm';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { formatMinutes } from '../../lib/format';
import { STATUS_LABELS, STATUS_OPTIONS } from '../../lib/ticket-labels';
import { notify } from '../../lib/toast/notify';
import { today } from '../../lib/today';
import { addComment, addTimeEntry, updateTicket, useTimeEntries } from './api';
import { useComposerFiles } from './ComposerFiles';

/** The status choice that leaves the ticket's status as it is. */
const KEEP = 'keep';

/** A reply: the comment, and optionally the status the ticket moves to and time logged with it. */
export interface Reply {
  body: string;
  /** Mailed to the ticket's requester too ("Reply by mail"); else an internal note. */
  sendToRequester?: boolean;
  /** `keep`: the status stays. */
  status: TicketStatus | typeof KEEP;
  minutes?: number;
}

const timeSchema = updateTimeEntrySchema.pick(['minutes']);
const validate = validateWith(commentSchema.concat(timeSchema));
// What was refused last time may be sent again without a comment.
const validateLeftover = validateWith(timeSchema);
const EMPTY: Reply = { body: '', status: KEEP };

/** What went through of a reply beyond its comment, and what is kept in the box to send again. */
interface Leftover {
  kept: Omit<Reply, 'body'>;
  problems: string[];
}
const NOTHING_LEFT: Leftover = { kept: { status: KEEP }, problems: [] };

/** Why a step was refused, in words that say what to do. */
const reasonOf = (error: unknown) => {
  if (error instanceof ApiError && error.status === 412) return 'someone else changed the ticket meanwhile; it now shows their version, so choose the status again and send';
  return error instanceof Error ? error.message : String(error);
};

const isSend = (event: KeyboardEvent) => event.key === 'Enter' && (event.ctrlKey || event.metaKey);

/**
 * The new-comment box, where one update is one send: the comment, then (if chosen) the ticket's
 * status from the version shown (If-Match), then (if typed) the time. They are separate calls: a
 * refused status or time after the comment went out is said in the box, and what was refused
 * stays chosen so it can be sent on its own, never posting the comment twice.
 */
export function ReplyComposer({ ticket, onCommented, onTicketChanged }: { ticket: Ticket; onCommented: () => unknown; onTicketChanged: () => unknown }) {
  const composer = useComposerFiles(ticket.id);
  const entries = useTimeEntries(ticket.id);
  const leftover = useRef<Leftover>(NOTHING_LEFT);
  const [problems, setProblems] = useState<string[]>([]);

  const send = async ({ body, sendToRequester, status, minutes }: Reply) => {
    // A body left after an earlier partial send is a new comment; a box with only the kept status
    // or time sends those alone.
    const comment = body.trim() ? await addComment(ticket.id, ticket.requester && sendToRequester ? { body, sendToRequester: true } : { body }) : null;
    const left: Leftover = { kept: { status: KEEP }, problems: [] };
    if (status !== KEEP && status !== ticket.status) {
      try {
        await updateTicket(ticket.id, { status }, ticket.version);
      } catch (error) {
        left.kept.status = status;
        left.problems.push(`Status not set to ${STATUS_LABELS[status]}: ${reasonOf(error)}.`);
      }
      await onTicketChanged();
    }
    if (minutes !== undefined) {
      try {
        await addTimeEntry(ticket.id, { workDate: today(), minutes, note: '', billable: true });
        await entries.mutate();
      } catch (error) {
        left.kept.minutes = minutes;
        left.problems.push(`Time not logged (${formatMinutes(minutes)}): ${reasonOf(error)}.`);
      }
    }
    leftover.current = left;
    return comment;
  };

  const reply: Mutation<Reply, TicketComment | null> = {
    send,
    success: (comment, values) => {
      const done = [comment ? 'Comment added' : null, values.status !== KEEP && leftover.current.kept.status === KEEP ? `status ${STATUS_LABELS[values.status]}` : null, values.minutes !== undefined && leftover.current.kept.minutes === undefined ? `${formatMinutes(values.minutes)} logged` : null];
      const [first = 'Nothing sent', ...rest] = done.filter((part): part is string => part !== null);
      return [comment && !comment.internal ? `${first} and mailed to ${ticket.requester?.email ?? 'the requester'}` : first, rest.join(' · ') || undefined];
    },
    failure: 'Comment not added',
    onSuccess: (comment) => {
      setProblems(leftover.current.problems);
      leftover.current.problems.forEach((problem) => notify.error('Not everything was saved', problem));
      if (comment) composer.sendTo(comment.id);
      return onCommented();
    },
  };

  return (
    // A comment that fails to save stays in its box, and a draft outlives a reload until it is saved.
    <MutationForm<Reply, TicketComment | null>
      mutation={reply}
      validate={(values) => (values.body.trim() || !leftover.current.problems.length ? validate(values) : validateLeftover(values))}
      initialValues={EMPTY}
      draft={{ key: `comment:${ticket.id}`, fields: ['body'] }}
      next={() => ({ body: '', ...leftover.current.kept })}
    >
      {({ submitting, form, values }) => (
        <Stack
          gap="xs"
          onKeyDown={(event) => {
            if (!isSend(event)) return;
            event.preventDefault();
            void form.submit();
          }}
        >
          <MentionTextareaField
            name="body"
            label="New comment"
            autosize
            minRows={2}
            description="Type @ to mention someone; paste or drop a screenshot to add it; Ctrl+Enter sends"
            {...composer.boxProps}
          />
          {composer.list}
          {ticket.requester ? (
            <CheckboxField
              name="sendToRequester"
              label={`Reply by mail to ${ticket.requester.email}`}
              description="Otherwise the comment is an internal note the requester never sees"
            />
          ) : null}
          {problems.length ? (
            <Alert color="red" title="Not everything was saved" data-testid="reply-problems">
              {problems.map((problem) => (
                <div key={problem}>{problem}</div>
              ))}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <ChoiceField
              name="status"
              label="Then mark as"
              data={[{ value: KEEP, label: `Leave ${STATUS_LABELS[ticket.status]}` }, ...STATUS_OPTIONS.filter((option) => option.value !== ticket.status)]}
            />
            <DurationField name="minutes" label="Log time (optional)" />
          </SimpleGrid>
          <Group justify="flex-end" gap="xs">
            {ticket.status !== 'resolved' && values.status === KEEP ? (
              <Button
                variant="light"
                disabled={submitting}
                onClick={() => {
                  form.change('status', 'resolved');
                  void form.submit();
                }}
              >
                Reply and resolve
              </Button>
            ) : null}
            <Button type="submit" loading={submitting} disabled={submitting}>
              {values.status !== KEEP ? `Add comment and set ${STATUS_LABELS[values.status]}` : 'Add comment'}
            </Button>
          </Group>
        </Stack>
      )}
    </MutationForm>
  );
}
