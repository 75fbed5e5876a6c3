import { Modal, type ModalProps } from '@mantine/core';
import { useState } from 'react';
import { GuardScopeContext, guardedClose, type GuardScope } from '../form/unsaved';

/**
 * A dialog holding a form that is not in the address (New ticket, New company): Escape, its close
 * button and a click outside ask before unsaved work in it goes. Leaving the page (Back, a link)
 * is asked about by the router's guard.
 */
export function FormModal({ onClose, children, ...props }: ModalProps) {
  const [scope] = useState<GuardScope>(() => ({ keys: [], forms: new Set() }));
  return (
    <Modal {...props} onClose={guardedClose(scope, onClose)}>
      <GuardScopeContext.Provider value={scope}>{children}</GuardScopeContext.Provider>
    </Modal>
  );
}
