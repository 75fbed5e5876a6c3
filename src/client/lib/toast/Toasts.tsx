import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import toast, { Toaster, resolveValue, useToasterStore } from 'react-hot-toast';
import { TOAST } from '../constants';
import { clearanceBottom, useClearanceVersion } from './clearance';
import { SwipeableToast } from './SwipeableToast';

/** Older toasts beyond the visible limit are dismissed, newest kept. */
const useVisibleLimit = () => {
  const { toasts } = useToasterStore();
  useEffect(() => {
    toasts
      .filter((t) => t.visible)
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(TOAST.visibleLimit)
      .forEach((t) => toast.dismiss(t.id));
  }, [toasts]);
};

/** Escape dismisses every toast; Alt+T moves focus to the newest one. */
const useToastKeys = (region: React.RefObject<HTMLDivElement | null>) => {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') toast.dismiss();
      if (event.altKey && !event.ctrlKey && !event.metaKey && event.code === 'KeyT') {
        const newest = region.current?.querySelector<HTMLElement>('[data-toast-id]');
        if (newest) {
          event.preventDefault();
          newest.focus();
        }
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [region]);
};

/**
 * The toast area of docs/architecture.md#toasts: top-right, 356 px wide, 14 px apart, 24 px in (16 px on phones).
 * With a record drawer open it starts the same offset below the drawer's header, so toasts never
 * cover its close button or title.
 */
export function Toasts() {
  const region = useRef<HTMLDivElement>(null);
  const mobile = useMediaQuery('(max-width: 48em)');
  const offset = mobile ? TOAST.offsetMobilePx : TOAST.offsetDesktopPx;
  useClearanceVersion();
  const top = clearanceBottom() + offset;
  useVisibleLimit();
  useToastKeys(region);

  return (
    <div ref={region} aria-label={`Notifications (${TOAST.hotkey})`} role="region">
      <Toaster
        position={TOAST.position}
        gutter={TOAST.gapPx}
        containerStyle={{ top, right: offset, left: offset, bottom: offset }}
        toastOptions={{ duration: TOAST.durationMs, removeDelay: TOAST.removeDelayMs }}
      >
        {(t) => <SwipeableToast t={t}>{resolveValue(t.message, t)}</SwipeableToast>}
      </Toaster>
    </div>
  );
}
