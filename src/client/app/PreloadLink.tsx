import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { Link, type LinkProps } from 'react-router-dom';
import { LINK_PRELOAD_MARGIN_PX } from '../../shared/constants';
import { preloadRoute } from './preload';

const whenIdle = (work: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work, 0);

/**
 * A router link that fetches its page's code once the link comes within 100 px of the viewport,
 * so the click finds the code already there.
 */
export const PreloadLink = forwardRef<HTMLAnchorElement, LinkProps & { to: string }>(function PreloadLink(props, ref) {
  const anchor = useRef<HTMLAnchorElement>(null);
  useImperativeHandle(ref, () => anchor.current as HTMLAnchorElement);
  const { to } = props;

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
  }, [to]);

  return <Link {...props} ref={anchor} />;
});
