import { Progress, Stack, Text } from '@mantine/core';
import { useRef, useState, type DragEvent } from 'react';
import { notify } from '../../lib/toast/notify';
import { uploadAttachment, useAttachments } from './attachments-api';

export interface Upload {
  id: number;
  name: string;
  fraction: number;
}

/**
 * Files being sent to a ticket (or one of its comments), each with its progress, and the props
 * that make an element take dropped files. The ticket's list reloads as each one ends.
 */
export const useUploads = (ticketId: number, commentId?: number) => {
  const attachments = useAttachments(ticketId);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const nextId = useRef(0);

  /** `to`: the comment the files belong to, when not the hook's own (a comment just added). */
  const send = (files: File[], to: number | undefined = commentId) => {
    for (const file of files) {
      const id = (nextId.current += 1);
      setUploads((all) => [...all, { id, name: file.name, fraction: 0 }]);
      const progress = (fraction: number) => setUploads((all) => all.map((u) => (u.id === id ? { ...u, fraction } : u)));
      uploadAttachment(ticketId, file, progress, to)
        .then(
          () => notify.success('File attached', file.name),
          (error: Error) => notify.error('File not attached', `${file.name}: ${error.message}`),
        )
        .finally(() => {
          setUploads((all) => all.filter((u) => u.id !== id));
          void attachments.mutate();
        });
    }
  };

  const dropProps = {
    'data-dragging': dragging || undefined,
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      setDragging(true);
    },
    onDragLeave: () => setDragging(false),
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      setDragging(false);
      send(Array.from(event.dataTransfer.files));
    },
  };
  return { uploads, send, dropProps };
};

export function UploadProgress({ uploads }: { uploads: Upload[] }) {
  return uploads.map((upload) => (
    <Stack key={upload.id} gap={2}>
      <Text size="xs">Uploading {upload.name}</Text>
      <Progress value={Math.round(upload.fraction * 100)} aria-label={`Uploading ${upload.name}`} />
    </Stack>
  ));
}
