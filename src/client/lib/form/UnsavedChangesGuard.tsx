import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { useBlocker, type BlockerFunction, type Location } from 'react-router-dom';
import { answerDiscard, askToDiscard, formsLostBy, hasUnsavedWork, useDiscardQuestion, type GuardedForm } from './unsaved';

/** The one dialog that asks before unsaved changes go. "Keep editing" is the safe default and has focus. */
function DiscardPrompt() {
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

/**
 * Unsaved work is never dropped without asking: a navigation that would take a dirty form off the
 * screen (Back, a link, closing a record drawer or the settings dialog, which are all address
 * changes) waits for the discard prompt, and reload or closing the tab gets the browser's own.
 */
export function UnsavedChangesGuard() {
  const lost = useRef<GuardedForm[]>([]);
  const shouldBlock: BlockerFunction = ({ currentLocation, nextLocation }) => {
    lost.current = formsLostBy(currentLocation, nextLocation);
    return lost.current.length > 0;
  };
  const blocker = useBlocker(shouldBlock);

  const latest = useRef(blocker);
  // One question per blocked move, however often the blocker re-renders while it waits.
  const asked = useRef<Location | null>(null);
  useEffect(() => {
    latest.current = blocker;
    if (blocker.state !== 'blocked' || asked.current === blocker.location) return;
    asked.current = blocker.location;
    void askToDiscard().then((discard) => {
      const now = latest.current;
      asked.current = null;
      if (now.state !== 'blocked') return;
      if (!discard) return now.reset();
      lost.current.forEach((form) => form.discard());
      now.proceed();
    });
  }, [blocker]);

  useWindowEvent('beforeunload', (event) => {
    if (!hasUnsavedWork()) return;
    event.preventDefault();
    // Older browsers show their prompt only when returnValue is set.
    event.returnValue = '';
  });

  return <DiscardPrompt />;
}
