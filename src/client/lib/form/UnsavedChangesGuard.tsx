import { useWindowEvent } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useBlocker, type BlockerFunction, type Location } from 'react-router-dom';
import { askToDiscard, formsLostBy, hasUnsavedWork, useDiscardQuestion, type GuardedForm } from './unsaved';

// The dialog's code (a Mantine Modal and its scroll lock) loads the first time it is needed, so
// the sign-in page's bundle does not carry it.
const DiscardPrompt = lazy(() => import('./DiscardPrompt').then((module) => ({ default: module.DiscardPrompt })));

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

  // Once shown it stays mounted, so the dialog closes with its transition and gives focus back.
  const asking = useDiscardQuestion();
  const [shown, setShown] = useState(false);
  if (asking && !shown) setShown(true);
  return shown ? (
    <Suspense fallback={null}>
      <DiscardPrompt />
    </Suspense>
  ) : null;
}
