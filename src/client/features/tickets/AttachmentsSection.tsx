import { Anchor, Button, FileButton, Group, Image, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useEffect, useEffectEvent, useState } from 'react';
import { isImageType, type Attachment } from '../../../shared/schemas/attachments';
import { useAuth } from '../../lib/auth-store';
import { apiDownload } from '../../lib/download';
import { formatDateTime } from '../../lib/format';
import { useAction } from '../../lib/form/use-mutation';
import { useCan } from '../../lib/permissions';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { useDownload } from '../../lib/use-download';
import { contentPath, deleteAttachment, useAttachments, useObjectUrl } from './attachments-api';
import { UploadProgress, useUploads } from './use-uploads';
import { AttachmentPreview, canPreview } from './AttachmentPreview';
import { nameScreenshots } from './screenshot-name';
import classes from './attachments.module.css';

// Sizes are counted in 1024s, so they are named in KiB and MiB, as the 25 MiB limit is.
const UNITS = ['bytes', 'KiB', 'MiB', 'GiB'];
export const formatBytes = (bytes: number) => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
};

function Thumbnail({ file }: { file: Attachment }) {
  const url = useObjectUrl(file.id);
  return url ? <Image src={url} alt={file.name} w={64} h={64} fit="cover" radius="sm" /> : <Skeleton w={64} h={64} aria-label={`Loading ${file.name}`} />;
}

export function AttachmentRow({ file, onDelete, showComment = true }: { file: Attachment; onDelete: (() => void) | null; showComment?: boolean }) {
  const { start, busy } = useDownload('Download failed');
  const download = () => void start(() => apiDownload(contentPath(file.id), file.name));
  // Images and PDFs open in a preview with Download beside it; other files download at once.
  const [previewing, setPreviewing] = useState(false);
  const previewable = canPreview(file);
  return (
    <Paper withBorder p="xs" component="li" className={classes.row}>
      <Group wrap="nowrap" gap="sm" align="center">
        {isImageType(file.contentType) ? <Thumbnail file={file} /> : null}
        <Stack gap={0} className={classes.grow}>
          <Anchor component="button" type="button" onClick={previewable ? () => setPreviewing(true) : download} className={classes.name} aria-haspopup={previewable ? 'dialog' : undefined}>
            {file.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {formatBytes(file.bytes)} · {file.uploadedByName} · {formatDateTime(file.at)}
            {file.commentId !== null && showComment ? ' · on a comment' : ''}
          </Text>
        </Stack>
        {onDelete ? (
          <Button variant="subtle" color="red" size="compact-sm" onClick={onDelete} aria-label={`Delete ${file.name}`}>
            Delete
          </Button>
        ) : null}
      </Group>
      {previewable ? <AttachmentPreview file={file} opened={previewing} onClose={() => setPreviewing(false)} onDownload={download} downloading={busy} /> : null}
    </Paper>
  );
}

/** Files on a ticket: dropped, chosen or pasted (a screenshot), each with its progress while it uploads. */
export function AttachmentsSection({ ticketId }: { ticketId: number }) {
  const attachments = useAttachments(ticketId);
  const me = useAuth().user;
  const mayDeleteAny = useCan('deleteAnyAttachment');
  const { uploads, send, dropProps } = useUploads(ticketId);

  // A screenshot pasted anywhere on the ticket is attached to it; pasted text is left alone.
  const onWindowPaste = useEffectEvent((event: globalThis.ClipboardEvent) => {
    const files = Array.from(event.clipboardData?.files ?? []);
    if (!files.length) return;
    event.preventDefault();
    send(nameScreenshots(files));
  });
  useEffect(() => {
    const onPaste = (event: globalThis.ClipboardEvent) => onWindowPaste(event);
    window.addEventListener('paste', onPaste);
    return () => window.removeEventListener('paste', onPaste);
  }, []);


  // A file is asked about before it goes, as a comment is: the bytes do not come back.
  const [doomed, setDoomed] = useState<Attachment | null>(null);
  const deletion = useAction<Attachment, unknown>({
    send: (file) => deleteAttachment(file.id),
    success: (_, file) => ['File deleted', file.name],
    failure: 'File not deleted',
    onSuccess: () => {
      setDoomed(null);
      return attachments.mutate();
    },
  });

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Attachments
      </Title>
      <Paper
        withBorder
        p="md"
        className={classes.drop}
        {...dropProps}
        role="group"
        aria-label="Add files"
      >
        <Group justify="space-between" gap="sm">
          <Text size="sm">Drop files here or paste a screenshot (up to 25 MiB each).</Text>
          <FileButton onChange={(files) => send(files)} multiple>
            {(props) => (
              <Button {...props} variant="default" size="compact-sm">
                Choose files
              </Button>
            )}
          </FileButton>
        </Group>
      </Paper>
      <UploadProgress uploads={uploads} />
      {!attachments.data && !attachments.error ? <Skeleton height={40} /> : null}
      {attachments.error ? <Text c="red">{attachments.error.message}</Text> : null}
      {attachments.data?.items.length === 0 ? <Text c="dimmed">No files yet.</Text> : null}
      {attachments.data?.items.length ? (
        <Stack gap="xs" component="ul" className={classes.list} aria-label="Files">
          {attachments.data.items.map((file) => (
            <AttachmentRow key={file.id} file={file} onDelete={mayDeleteAny || file.uploadedBy === me?.id ? () => setDoomed(file) : null} />
          ))}
        </Stack>
      ) : null}
      <ConfirmDialog
        opened={doomed !== null}
        onClose={() => setDoomed(null)}
        title={`Delete ${doomed?.name ?? 'file'}?`}
        busy={deletion.busy}
        onConfirm={() => void (doomed && deletion.run(doomed))}
      >
        <Text>The file is removed from the ticket for everyone; the ticket's history keeps its name.</Text>
      </ConfirmDialog>
    </Stack>
  );
}
