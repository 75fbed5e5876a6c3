import { Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useAuth } from '../../lib/auth-store';
import { useAction } from '../../lib/form/use-mutation';
import { useCan } from '../../lib/permissions';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { FormModal } from '../../lib/ui/FormModal';

/** Whether the signed-in person may correct a row by `authorId`: their own, or anyone's as an admin. */
export const useMayCorrect = () => {
  const me = useAuth().user?.id;
  const others = useCan('correctOthersActivity');
  return (authorId: number | null) => others || (authorId !== null && authorId === me);
};

interface CorrectionActionsProps {
  /** What the row is, for the buttons' names and the dialogs' titles: "time entry of 4 Mar 2026". */
  what: string;
  /** The edit form; `close` ends the dialog after a save. */
  editor: (close: () => void) => ReactNode;
  remove: () => Promise<unknown>;
  onRemoved: () => unknown;
}

/** Edit and Delete for one comment or time entry, each in its own dialog. */
export function CorrectionActions({ what, editor, remove, onRemoved }: CorrectionActionsProps) {
  const [editing, edit] = useDisclosure(false);
  const [confirming, confirm] = useDisclosure(false);
  const deletion = useAction<null, unknown>({
    send: remove,
    success: () => [`Deleted the ${what}`],
    failure: 'Not deleted',
    onSuccess: () => {
      confirm.close();
      return onRemoved();
    },
    onConflict: () => onRemoved(),
  });
  return (
    <Group gap={4} wrap="nowrap">
      <Button size="compact-xs" variant="subtle" onClick={edit.open} aria-label={`Edit ${what}`}>
        Edit
      </Button>
      <Button size="compact-xs" variant="subtle" color="red" onClick={confirm.open} aria-label={`Delete ${what}`}>
        Delete
      </Button>
      <FormModal opened={editing} onClose={edit.close} title={`Edit ${what}`}>
        {editing ? editor(edit.close) : null}
      </FormModal>
      <ConfirmDialog opened={confirming} onClose={confirm.close} title={`Delete ${what}?`} busy={deletion.busy} onConfirm={() => void deletion.run(null)}>
        <Text>This cannot be undone; the ticket's history keeps what it held.</Text>
      </ConfirmDialog>
    </Group>
  );
}
