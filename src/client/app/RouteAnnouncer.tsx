import { VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

/**
 * After a client-side navigation to another page, moves focus to the new page's h1 (so the next
 * Tab starts from the content, not from the link that was used) and reads the new title once
 * through a polite live region. Changes of the search part alone (a drawer opening) are not a new
 * page. This effect runs after the new page's own effects, so its h1 and title are in place.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const [message, setMessage] = useState('');

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('main');
    if (heading) {
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    }
    setMessage(document.title);
  }, [pathname]);

  return (
    <VisuallyHidden aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {message}
    </VisuallyHidden>
  );
}
