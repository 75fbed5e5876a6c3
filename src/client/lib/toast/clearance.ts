import { useCallback, useSyncExternalStore } from 'react';

/**
 * Headers of open layers (a record drawer, the settings dialog on a phone) and action rows near
 * the top of one (a statement's Print / Mark paid) whose controls toasts must not cover. The toast
 * area (docs/architecture.md#toasts) stays top-right at its offsets; while such an element is open
 * the area starts below it, so its buttons stay clickable.
 */
const headers = new Set<HTMLElement>();
const listeners = new Set<() => void>();
let version = 0;
const changed = () => {
  version += 1;
  listeners.forEach((listener) => listener());
};

/** A callback ref for an element inside (or being) what `selector` names; that element is kept clear. */
export const useToastClearance = (selector: string) =>
  useCallback(
    (element: HTMLElement | null) => {
      const header = element?.closest<HTMLElement>(selector);
      if (!header) return;
      headers.add(header);
      changed();
      // A title that wraps on a phone makes the header taller.
      const resized = new ResizeObserver(changed);
      resized.observe(header);
      return () => {
        resized.disconnect();
        headers.delete(header);
        changed();
      };
    },
    [selector],
  );

/** Changes whenever a header comes or goes, so the toast area measures again. */
export const useClearanceVersion = () =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );

/** The lowest bottom edge of the open headers on screen, in px from the top; 0 with none. */
export const clearanceBottom = () =>
  [...headers].reduce((lowest, header) => {
    if (!header.isConnected) return lowest;
    const box = header.getBoundingClientRect();
    // Scrolled out of sight above the viewport, it needs no room.
    return box.width > 0 && box.bottom > 0 ? Math.max(lowest, box.bottom) : lowest;
  }, 0);
