import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { answerDiscard, useDiscardQuestion } from './unsaved';

/** The one dialog that asks before unsaved changes go. "Keep editing" is the safe default and has focus. */
export function DiscardPrompt() {
  const asking = useDiscardQuestion();
  return (
    <Modal opened={asking} onClose={() => answerDiscard(false)} title="Discard unsaved changes?" centered zIndex={400} withCloseButton={false}>
      <Stack data-testid="discard-prompt">
        <Text size="sm">You have changes that are not saved yet. If you leave now, they are lost.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => answerDiscard(false)} data-autofocus>
            Keep editing
          </Button>
          <Button color="red" onClick={() => answerDiscard(true)}>
            Discard changes
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
