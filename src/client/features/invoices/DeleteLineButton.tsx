import { Button, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { InvoiceLine } from '../../../shared/types';
import { useAction } from '../../lib/form/use-mutation';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { deleteLine } from './api';

/** Deletes a draft line after asking; the server refuses (409) once it is no longer a draft. */
export function DeleteLineButton({ line, onDeleted, onRefused }: { line: InvoiceLine; onDeleted: () => unknown; onRefused: () => unknown }) {
  const [confirming, confirm] = useDisclosure(false);
  const remove = useAction<InvoiceLine, null>({
    send: (current) => deleteLine(current.id),
    success: (_, current) => ['Line deleted', current.description.split('\n')[0]],
    failure: 'Line not deleted',
    onSuccess: () => {
      confirm.close();
      return onDeleted();
    },
    onFailure: () => {
      confirm.close();
      return onRefused();
    },
  });
  return (
    <>
      <Group>
        <Button color="red" variant="light" onClick={confirm.open}>
          Delete line
        </Button>
      </Group>
      <ConfirmDialog opened={confirming} onClose={confirm.close} title="Delete this draft line?" busy={remove.busy} onConfirm={() => void remove.run(line)}>
        <Text>
          Delete <strong>{line.description.split('\n')[0]}</strong>? This cannot be undone; the audit log keeps what it held.
        </Text>
      </ConfirmDialog>
    </>
  );
}
