import { Button, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Says what is about to happen, and to whom or what. */
  children: ReactNode;
  /** The red button's label, "Delete" by default. */
  confirmLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
  /** The action cannot go ahead (the text says why): only an OK button is offered. */
  blocked?: boolean;
}

/** Asks before a change that cannot simply be taken back; the red button names the change. */
export function ConfirmDialog({ opened, onClose, title, children, confirmLabel = 'Delete', onConfirm, busy = false, blocked = false }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {blocked ? 'OK' : 'Cancel'}
          </Button>
          {blocked ? null : (
            <Button color="red" onClick={onConfirm} loading={busy} disabled={busy}>
              {confirmLabel}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
