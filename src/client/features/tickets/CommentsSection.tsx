import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Form } from 'react-final-form';
import { commentSchema, type CommentPayload } from '../../../shared/schemas/tickets';
import { formatDateTime } from '../../lib/format';
import { TextareaField } from '../../lib/form/fields';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';
import { notify } from '../../lib/toast/notify';
import { addComment, useComments } from './api';

const validate = validateWith(commentSchema);

export function CommentsSection({ ticketId }: { ticketId: number }) {
  const comments = useComments(ticketId);

  const submit = async (values: CommentPayload) => {
    try {
      await addComment(ticketId, values);
      await comments.mutate();
    } catch (error) {
      notify.error('Comment not added', (error as Error).message);
    }
  };

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Comments
      </Title>
      {!comments.data && !comments.error ? <Skeleton height={48} /> : null}
      {comments.error ? <Text c="red">{comments.error.message}</Text> : null}
      {comments.data?.items.length === 0 ? <Text c="dimmed">No comments yet.</Text> : null}
      {comments.data?.items.map((comment) => (
        <Paper key={comment.id} withBorder p="sm">
          <Text size="xs" c="dimmed">
            {comment.userName} · {formatDateTime(comment.createdAt)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {comment.body}
          </Text>
        </Paper>
      ))}
      <Form<CommentPayload>
        onSubmit={async (values, form) => {
          await submit(values);
          form.restart();
        }}
        validate={validate}
        initialValues={{ body: '' }}
        render={({ handleSubmit, submitting }) => (
          <form onSubmit={handleSubmit} noValidate>
            <Stack gap="xs">
              <TextareaField name="body" label="New comment" autosize minRows={2} />
              <SubmitButton label="Add comment" submitting={submitting} />
            </Stack>
          </form>
        )}
      />
    </Stack>
  );
}
