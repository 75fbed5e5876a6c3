import { Drawer } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { closeOnEscapeInside } from './escape';

/** The side panel a record opens in; the whole screen on a phone. */
export function RecordDrawer({ opened, onClose, title, children }: { opened: boolean; onClose: () => void; title: ReactNode; children: ReactNode }) {
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={phone ? '100%' : 'lg'} title={title} {...closeOnEscapeInside(onClose)}>
      {children}
    </Drawer>
  );
}
