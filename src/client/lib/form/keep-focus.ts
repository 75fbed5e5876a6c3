// How long after a save focus is watched: long enough for a confirm dialog to fade out and hand
// focus back (Mantine's transitions are 200 ms), short enough never to fight the person.
const WATCH_MS = 1500;

/** Where focus goes in a layer whose saving control is gone: its heading, else the layer itself. */
const focusLayer = (layer: HTMLElement) => {
  const headingId = layer.getAttribute('aria-labelledby');
  const heading = headingId ? document.getElementById(headingId) : null;
  const target = heading ?? layer;
  if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
  target.focus();
};

const lost = () => document.activeElement === null || document.activeElement === document.body;

/**
 * Call as a save starts; call what it returns once the save is over. The control that saved is
 * disabled while the request runs (and may be replaced or removed after it), which drops focus to
 * the page body, where Escape no longer reaches the drawer. While focus is lost, it goes back to
 * that control once it is usable again, else to the heading of the topmost open drawer or dialog.
 */
export const holdFocus = () => {
  const from = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  if (!from?.closest('[role="dialog"]')) return () => undefined;
  return () => {
    const until = performance.now() + WATCH_MS;
    let stopped = false;
    const stop = () => {
      stopped = true;
    };
    // The person acting first (a key press, a click) settles where focus is.
    document.addEventListener('keydown', stop, { capture: true, once: true });
    document.addEventListener('pointerdown', stop, { capture: true, once: true });
    const look = () => {
      if (stopped) return;
      if (lost()) {
        if (from.isConnected && !from.matches(':disabled')) from.focus();
        else if (!from.isConnected) {
          const layers = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')];
          const top = layers.at(-1);
          if (top) focusLayer(top);
        }
      }
      if (performance.now() < until) requestAnimationFrame(look);
      else {
        document.removeEventListener('keydown', stop, { capture: true });
        document.removeEventListener('pointerdown', stop, { capture: true });
      }
    };
    requestAnimationFrame(look);
  };
};
