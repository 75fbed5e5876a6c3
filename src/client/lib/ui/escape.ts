import type { KeyboardEvent } from 'react';

/**
 * Props for a Mantine Modal or Drawer that other layers can open on top of (a confirm dialog, a
 * dropdown, the settings dialog over a record): Escape closes it only when pressed inside it, so
 * one press closes the topmost layer alone. Mantine's own Escape handling listens on the window
 * and would close every open layer at once.
 */
export const closeOnEscapeInside = (onClose: () => void) => ({
  closeOnEscape: false,
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    // A layer in its own portal reaches this handler through React's tree, not the page's.
    if (!event.currentTarget.contains(target)) return;
    // Mantine marks an input whose dropdown is open: that Escape closes the dropdown only.
    if (target.getAttribute('data-mantine-stop-propagation') === 'true') return;
    onClose();
  },
});
