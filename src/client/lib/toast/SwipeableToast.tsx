import { CloseButton } from '@mantine/core';
import { useRef, useState, type PointerEvent, type ReactNode } from 'react';
import toast, { type Toast } from 'react-hot-toast';
import { TOAST } from '../constants';
import classes from './toast.module.css';

/** A toast card with a close button that also dismisses when swiped sideways 45 px or more. */
export function SwipeableToast({ t, children }: { t: Toast; children: ReactNode }) {
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);

  const onPointerDown = (event: PointerEvent) => {
    start.current = event.clientX;
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (start.current !== null) setOffset(event.clientX - start.current);
  };
  const onPointerEnd = () => {
    if (start.current === null) return;
    start.current = null;
    if (Math.abs(offset) >= TOAST.swipeThresholdPx) {
      setOffset(offset > 0 ? 400 : -400);
      toast.dismiss(t.id);
    } else {
      setOffset(0);
    }
  };

  return (
    <div
      className={classes.card}
      data-visible={t.visible}
      data-toast-id={t.id}
      tabIndex={-1}
      role={t.type === 'error' ? 'alert' : 'status'}
      aria-live={t.type === 'error' ? 'assertive' : 'polite'}
      style={{ transform: `translateX(${offset}px)`, opacity: t.visible ? 1 - Math.min(Math.abs(offset) / 200, 0.6) : 0 }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    >
      {children}
      <CloseButton
        className={classes.close}
        size="sm"
        variant="transparent"
        aria-label="Close notification"
        onPointerDown={(event) => event.stopPropagation()}
        onClick={() => toast.dismiss(t.id)}
      />
    </div>
  );
}
