import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { commentOfHash } from '../../lib/addresses/tickets';

/**
 * The comment the address points at: once the ticket's comments have loaded, it is scrolled into
 * view and focused, once per address (a colleague's new comment re-reading the list must not pull
 * the page back to it).
 */
export const useTargetComment = (comments: readonly { id: number }[] | undefined) => {
  const { hash } = useLocation();
  const id = commentOfHash(hash);
  const ref = useRef<HTMLDivElement>(null);
  const shown = useRef<string | null>(null);
  const present = comments?.some((comment) => comment.id === id) === true;
  useEffect(() => {
    if (!present || shown.current === hash) return;
    let inner = 0;
    // The drawer's focus trap puts focus on its first control a task after it opens (two
    // scheduled tasks: its ref and its effect); the comment takes focus after both.
    const timer = window.setTimeout(() => {
      inner = window.setTimeout(() => {
        shown.current = hash;
        ref.current?.scrollIntoView({ block: 'center' });
        ref.current?.focus({ preventScroll: true });
      });
    });
    return () => {
      window.clearTimeout(timer);
      window.clearTimeout(inner);
    };
  }, [present, hash]);
  return { id, ref };
};
