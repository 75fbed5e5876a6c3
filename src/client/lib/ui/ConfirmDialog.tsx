import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  /** The red button's label, "Delete" by default. */
  confirmLabel?: string;
  busy: boolean;
  onConfirm: () => void;
}

/** Asks before a step that cannot be taken back: Cancel, or the red button that takes it. */
export function ConfirmDialog({ opened, onClose, title, children, confirmLabel = 'Delete', busy, onConfirm }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" onClick={onConfirm} loading={busy} disabled={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
