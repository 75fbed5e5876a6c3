import { Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { commentSchema, type CommentPayload } from '../../../shared/schemas/tickets';
import type { Ticket, TicketComment } from '../../../shared/types';
import { formatDateTime } from '../../lib/format';
import type { RecordOption } from '../../lib/record-options';
import { MentionTextareaField } from '../../lib/form/MentionTextareaField';
import { MentionText } from '../../lib/ui/MentionText';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';
import { MutationForm } from '../../lib/form/MutationForm';
import type { Mutation } from '../../lib/form/use-mutation';
import { deleteComment, editComment, fetchComment, useComments } from './api';
import { CommentFiles } from './CommentFiles';
import { commentAnchor } from '../../lib/addresses/tickets';
import { useTargetComment } from './comment-target';
import classes from './comments.module.css';
import { ReplyComposer } from './ReplyComposer';
import { CorrectionActions, useMayCorrect } from './CorrectionActions';

const validate = validateWith(commentSchema);

const valuesOf = (comment: TicketComment): CommentPayload => ({ body: comment.body });
const COMMENT_ROW = { action: 'comment_edit' } as const;

/**
 * The correction of one comment, from the version it opened with: a colleague's save meanwhile
 * re-reads into a clean form, and shows a dirty one the conflict notice with the typing kept.
 */
function CommentEditForm({ comment, onSaved }: { comment: TicketComment; onSaved: () => unknown }) {
  // The version being edited. The list re-reads as others save; following it would start the form
  // again over what was typed, so only the live check or the notice moves this on.
  const [shown, setShown] = useState(comment);
  const save: Mutation<CommentPayload, TicketComment> = {
    send: (values, ifMatch) => editComment(comment.ticketId, comment.id, values, ifMatch),
    success: () => ['Comment edited'],
    failure: 'Comment not edited',
    onSuccess: onSaved,
  };
  return (
    <MutationForm<CommentPayload, TicketComment>
      mutation={save}
      validate={validate}
      initialValues={valuesOf(shown)}
      record={{
        entity: 'ticket',
        id: comment.ticketId,
        version: shown.version,
        valuesOf,
        row: COMMENT_ROW,
        read: () => fetchComment(comment.ticketId, comment.id),
        onReload: setShown,
      }}
    >
      {({ submitting }) => (
        <Stack gap="xs">
          <MentionTextareaField name="body" label="Comment" autosize minRows={2} />
          <SubmitButton label="Save comment" submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}

/** Where a comment went, on a ticket with a requester: from them, mailed to them, or kept in the team. */
function MailBadge({ comment, requester }: { comment: TicketComment; requester: boolean }) {
  if (comment.external) return <Badge size="xs" variant="light" color="grape" title={comment.externalEmail ?? undefined}>By mail from the requester</Badge>;
  if (!comment.internal) return <Badge size="xs" variant="light" color="blue">Mailed to the requester</Badge>;
  return requester ? <Badge size="xs" variant="light" color="gray">Internal note</Badge> : null;
}

/**
 * `people`: the people at hand, so the comments' mentions show as names without asking again.
 * `onTicketChanged`: re-reads the ticket after a reply changed its status.
 */
export function CommentsSection({ ticket, people, onTicketChanged }: { ticket: Ticket; people: readonly RecordOption[]; onTicketChanged: () => unknown }) {
  const ticketId = ticket.id;
  const comments = useComments(ticketId);
  const mayCorrect = useMayCorrect();
  const target = useTargetComment(comments.data?.items);

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Comments
      </Title>
      {!comments.data && !comments.error ? <Skeleton height={48} /> : null}
      {comments.error ? <Text c="red">{comments.error.message}</Text> : null}
      {comments.data?.items.length === 0 ? <Text c="dimmed">No comments yet.</Text> : null}
      {comments.data?.items.map((comment) => (
        <Paper
          key={comment.id}
          id={commentAnchor(comment.id)}
          tabIndex={-1}
          withBorder
          p="sm"
          ref={comment.id === target.id ? target.ref : undefined}
          className={comment.id === target.id ? classes.target : undefined}
        >
          <Group justify="space-between" wrap="nowrap">
            <Group gap={6} wrap="wrap">
              <Text size="xs" c="dimmed">
                {comment.userName} · {formatDateTime(comment.createdAt)}
                {comment.version > 1 ? ' · edited' : ''}
              </Text>
              <MailBadge comment={comment} requester={ticket.requester !== null} />
            </Group>
            {mayCorrect(comment.userId) ? (
              <CorrectionActions
                what={`comment by ${comment.userName}, ${formatDateTime(comment.createdAt)}`}
                editor={(close) => (
                  <CommentEditForm
                    comment={comment}
                    onSaved={async () => {
                      close();
                      await comments.mutate();
                    }}
                  />
                )}
                remove={() => deleteComment(ticketId, comment.id, comment.version)}
                onRemoved={() => comments.mutate()}
              />
            ) : null}
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            <MentionText text={comment.body} known={people} />
          </Text>
          <CommentFiles ticketId={ticketId} commentId={comment.id} label={`${comment.userName}'s comment of ${formatDateTime(comment.createdAt)}`} />
        </Paper>
      ))}
      <ReplyComposer ticket={ticket} onCommented={() => comments.mutate()} onTicketChanged={onTicketChanged} />
    </Stack>
  );
}
