import { Drawer } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { GuardScopeContext, type GuardScope } from '../form/unsaved';
import { useToastClearance } from '../toast/clearance';
import { closeOnEscapeInside } from './escape';

interface RecordDrawerProps {
  opened: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** The search values that keep this drawer open; a form in it with unsaved work asks before they change. */
  keys?: readonly string[];
}

/**
 * The drawer and its shade start below the app's header (AppShell sets the height on :root), so
 * the header's bell and offline badge stay in sight and in reach while a record is open.
 */
const BELOW_HEADER = { top: 'var(--app-shell-header-height, 0px)' };

/** The side panel a record opens in; the whole screen below the header on a phone. */
export function RecordDrawer({ opened, onClose, title, children, keys = ['id'] }: RecordDrawerProps) {
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const [scope] = useState<GuardScope>(() => ({ keys, forms: new Set() }));
  const clearance = useToastClearance('.mantine-Drawer-header');
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={<span ref={clearance}>{title}</span>}
      styles={{ inner: BELOW_HEADER, overlay: BELOW_HEADER }}
      {...closeOnEscapeInside(onClose)}
    >
      <GuardScopeContext.Provider value={scope}>{children}</GuardScopeContext.Provider>
    </Drawer>
  );
}
