import { Button, Group, Stack, Text } from '@mantine/core';
import { useState, type ClipboardEvent, type DragEvent } from 'react';
import { formatBytes } from './AttachmentsSection';
import { nameScreenshots } from './screenshot-name';
import { UploadProgress, useUploads } from './use-uploads';

/**
 * Files pasted or dropped into a comment being written: they wait beside it, and once the comment
 * is added they are uploaded as that comment's files. A pasted screenshot is named by the time it
 * came (screenshot-name.ts).
 */
export const useComposerFiles = (ticketId: number) => {
  const [files, setFiles] = useState<File[]>([]);
  const { uploads, send } = useUploads(ticketId);
  // Two screenshots in one minute are told apart: "… 14.02.png", "… 14.02 (2).png".
  const take = (incoming: File[]) => setFiles((all) => [...all, ...nameScreenshots(incoming, new Date(), all.map((file) => file.name))]);

  const boxProps = {
    onPaste: (event: ClipboardEvent<HTMLTextAreaElement>) => {
      const data = event.clipboardData;
      // Text copied from a document can bring a picture of itself along: that pastes as text.
      if (data.files.length === 0 || data.types.includes('text/plain')) return;
      event.preventDefault();
      // The ticket's own paste handler (Attachments) would take it for the ticket as well.
      event.stopPropagation();
      take(Array.from(data.files));
    },
    onDragOver: (event: DragEvent<HTMLTextAreaElement>) => {
      if (event.dataTransfer.types.includes('Files')) event.preventDefault();
    },
    onDrop: (event: DragEvent<HTMLTextAreaElement>) => {
      if (event.dataTransfer.files.length === 0) return;
      event.preventDefault();
      take(Array.from(event.dataTransfer.files));
    },
  };

  const list = (
    <>
      {files.length ? (
        <Stack gap={4} component="ul" aria-label="Files for the new comment" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {files.map((file, index) => (
            <Group key={`${index}-${file.name}`} component="li" gap="xs" wrap="nowrap" justify="space-between">
              <Text size="sm" truncate>
                {file.name}{' '}
                <Text span size="xs" c="dimmed">
                  {formatBytes(file.size)}
                </Text>
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                color="gray"
                aria-label={`Remove ${file.name}`}
                onClick={() => setFiles((all) => all.filter((_, i) => i !== index))}
              >
                Remove
              </Button>
            </Group>
          ))}
        </Stack>
      ) : null}
      <UploadProgress uploads={uploads} />
    </>
  );

  return {
    boxProps,
    list,
    /** After the comment is added: its files go up as its own. */
    sendTo: (commentId: number) => {
      // The files there were when the comment was sent; one pasted while it was on its way waits for the next.
      const sent = files;
      send(sent, commentId);
      setFiles((all) => all.filter((file) => !sent.includes(file)));
    },
  };
};
