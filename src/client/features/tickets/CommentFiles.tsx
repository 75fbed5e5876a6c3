import { Button, FileButton, Group, Stack } from '@mantine/core';
import { AttachmentRow } from './AttachmentsSection';
import { useAttachments } from './attachments-api';
import { UploadProgress, useUploads } from './use-uploads';

/** A comment's own files, and files dropped on it or chosen for it; they are deleted from the ticket's Attachments list. */
export function CommentFiles({ ticketId, commentId, label }: { ticketId: number; commentId: number; label: string }) {
  const attachments = useAttachments(ticketId);
  const { uploads, send, dropProps } = useUploads(ticketId, commentId);
  const own = attachments.data?.items.filter((file) => file.commentId === commentId) ?? [];
  return (
    <Stack gap={4} {...dropProps}>
      {own.length ? (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={`Files of ${label}`}>
          {own.map((file) => (
            <AttachmentRow key={file.id} file={file} showComment={false} onDelete={null} />
          ))}
        </Stack>
      ) : null}
      <UploadProgress uploads={uploads} />
      <Group justify="flex-end">
        <FileButton onChange={(files) => send(files)} multiple>
          {(props) => (
            <Button {...props} variant="subtle" size="compact-xs" aria-label={`Attach files to ${label}`}>
              Attach files
            </Button>
          )}
        </FileButton>
      </Group>
    </Stack>
  );
}
