import { useLayoutEffect, useRef, useState } from 'react';
import { useNavigation } from 'react-router-dom';
import { ROUTE_PENDING_MIN_MS } from '../lib/constants';
import classes from './navigation-progress.module.css';

/**
 * True while `active`, and for at least `minMs` once it has turned true, so the bar never flickers.
 * `shown` stays true through the render where `active` falls, so the bar is never taken out and put
 * back; the clock starts in a layout effect, once the bar is in the page.
 */
const useMinimumDuration = (active: boolean, minMs: number) => {
  const [shown, setShown] = useState(active);
  const shownAt = useRef(0);
  if (active && !shown) setShown(true);

  useLayoutEffect(() => {
    if (active) {
      shownAt.current = performance.now();
      return undefined;
    }
    // Timers take whole milliseconds and cut the fraction, so round up: never a hair under `minMs`.
    const remaining = Math.ceil(minMs - (performance.now() - shownAt.current));
    const timer = setTimeout(() => setShown(false), Math.max(0, remaining));
    return () => clearTimeout(timer);
  }, [active, minMs]);

  return active || shown;
};

/** A thin bar at the top of the window while a route's code or data loads. */
export function NavigationProgress() {
  const busy = useNavigation().state !== 'idle';
  const visible = useMinimumDuration(busy, ROUTE_PENDING_MIN_MS);
  return visible ? <div className={classes.bar} role="progressbar" aria-label="Loading page" data-testid="navigation-progress" /> : null;
}
