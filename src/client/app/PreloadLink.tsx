import { forwardRef, useEffect, useImperativeHandle, useRef, type MouseEvent } from 'react';
import { Link, useLocation, type LinkProps } from 'react-router-dom';
import { LINK_PRELOAD_MARGIN_PX } from '../lib/constants';
import { useRoutePreload } from '../lib/route-preload';
import type { AppPath } from './routes';

const whenIdle = (work: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work, 0);

/** A click the router will turn into a visit here, not a new tab or window. */
const opensHere = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * A router link to a page of the route table. Its page's code is fetched once the link comes
 * within 100 px of the viewport, so the click finds the code there; the click itself starts the
 * page's first data request, which then arrives while the code is still being set up.
 */
export const PreloadLink = forwardRef<HTMLAnchorElement, LinkProps & { to: AppPath }>(function PreloadLink({ onClick, ...props }, ref) {
  const anchor = useRef<HTMLAnchorElement>(null);
  useImperativeHandle(ref, () => anchor.current as HTMLAnchorElement);
  const { to } = props;
  const { pathname } = useLocation();
  // From context, not imported: the route table loads this link's code, so importing it would be a cycle.
  const preloadRoute = useRoutePreload();

  useEffect(() => {
    const element = anchor.current;
    if (!element || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          // When idle: a page full of links must not delay the page's own first paint.
          whenIdle(() => preloadRoute(to));
          observer.disconnect();
        }
      },
      { rootMargin: `${LINK_PRELOAD_MARGIN_PX}px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [preloadRoute, to]);

  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    // The page already shown stays mounted: nothing would take its data.
    if (!event.defaultPrevented && opensHere(event) && pathname.replace(/\/+$/, '') !== to) preloadRoute(to, { data: true });
  };

  return <Link {...props} onClick={click} ref={anchor} />;
});
