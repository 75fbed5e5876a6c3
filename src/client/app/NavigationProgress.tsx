import { useEffect, useRef, useState } from 'react';
import { useNavigation } from 'react-router-dom';
import { ROUTE_PENDING_MIN_MS } from '../../shared/constants';
import classes from './navigation-progress.module.css';

/** True while `active`, and for at least `minMs` once it has turned true, so the bar never flickers. */
const useMinimumDuration = (active: boolean, minMs: number) => {
  const [lingering, setLingering] = useState(false);
  const shownAt = useRef(0);
  const wasActive = useRef(active);

  useEffect(() => {
    if (active) {
      shownAt.current = Date.now();
    } else if (wasActive.current) {
      const remaining = minMs - (Date.now() - shownAt.current);
      if (remaining > 0) {
        setLingering(true);
        const timer = setTimeout(() => setLingering(false), remaining);
        wasActive.current = active;
        return () => clearTimeout(timer);
      }
    }
    wasActive.current = active;
    return undefined;
  }, [active, minMs]);

  return active || lingering;
};

/** A thin bar at the top of the window while a route's code or data loads. */
export function NavigationProgress() {
  const busy = useNavigation().state !== 'idle';
  const visible = useMinimumDuration(busy, ROUTE_PENDING_MIN_MS);
  return visible ? <div className={classes.bar} role="progressbar" aria-label="Loading page" data-testid="navigation-progress" /> : null;
}
