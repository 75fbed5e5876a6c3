import { Group, Modal, NavLink, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import type { SettingsTab } from '../../lib/constants';
import { ApiTokensTab } from './ApiTokensTab';
import { DatabaseTab } from './DatabaseTab';
import { MailLogTab } from './MailLogTab';
import { NotificationsTab } from './NotificationsTab';
import { ProfileTab } from './ProfileTab';
import { SecurityTab } from './SecurityTab';
import { GuardScopeContext, type GuardScope } from '../../lib/form/unsaved';
import { useToastClearance } from '../../lib/toast/clearance';
import { closeOnEscapeInside } from '../../lib/ui/escape';
import { useSettingsParams } from '../../lib/addresses/settings';
import { useCan } from '../../lib/permissions';
import classes from './settings.module.css';

const LABELS: Record<SettingsTab, string> = {
  profile: 'Profile',
  security: 'Security',
  notifications: 'Notifications',
  database: 'Database',
  'api-tokens': 'API tokens',
  mail: 'Mail log',
};

const SHOWN_TABS: SettingsTab[] = ['profile', 'security', 'notifications', 'database', 'api-tokens'];
// The mail log shows recipients and bodies: admins only, like the provider's route (docs/api.md#mail).
const ADMIN_TABS: SettingsTab[] = [...SHOWN_TABS, 'mail'];

function Panel({ tab, mailLog }: { tab: SettingsTab; mailLog: boolean }) {
  if (tab === 'mail') return mailLog ? <MailLogTab /> : <Text c="dimmed">Only admins can read the mail log.</Text>;
  if (tab === 'security') return <SecurityTab />;
  if (tab === 'database') return <DatabaseTab />;
  if (tab === 'api-tokens') return <ApiTokensTab />;
  if (tab === 'notifications') return <NotificationsTab />;
  return <ProfileTab />;
}

/**
 * Closing hands focus to the account menu's button, where settings live. Mantine would hand it to
 * what had focus when the dialog opened: opened from the menu, that is often the menu item, gone
 * with the menu by then, which leaves focus on the page body.
 */
const returnFocusToOpener = () => document.querySelector<HTMLElement>('[data-settings-opener]')?.focus();

/** The settings dialog, opened by `?settings=true`; the active tab lives in `?tab=`. */
export function SettingsDialog() {
  const [{ settings, tab = 'profile' }, setParams] = useSettingsParams();
  const mailLog = useCan('readMailLog');
  const mobile = useMediaQuery('(max-width: 48em)') ?? false;
  const close = () => setParams({ settings: undefined, tab: undefined });
  // A tab change or closing takes a form off the screen: with unsaved changes, the router's guard asks first.
  const [scope] = useState<GuardScope>(() => ({ keys: ['settings', 'tab'], forms: new Set() }));
  // Full screen on a phone, its header is where the toasts would be.
  const clearance = useToastClearance('.mantine-Modal-header');

  return (
    <Modal
      opened={settings === true}
      onClose={close}
      returnFocus={false}
      onExitTransitionEnd={returnFocusToOpener}
      {...closeOnEscapeInside(close)}
      fullScreen={mobile}
      size="60vw"
      classNames={{ content: classes.content, body: classes.body }}
      styles={{ content: mobile ? undefined : { height: '80dvh', maxHeight: '80dvh' } }}
      closeButtonProps={{ 'aria-label': 'Close settings' }}
      title={
        <Group gap="xs" ref={mobile ? clearance : undefined}>
          <Text fw={700}>Settings</Text>
          <Text c="dimmed" aria-hidden>
            /
          </Text>
          <Text fw={500} data-testid="settings-tab-label">
            {LABELS[tab]}
          </Text>
        </Group>
      }
    >
      <div className={classes.layout}>
        <nav className={classes.nav} aria-label="Settings sections">
          {(mailLog ? ADMIN_TABS : SHOWN_TABS).map((value) => (
            <NavLink
              key={value}
              component="button"
              type="button"
              label={LABELS[value]}
              active={tab === value}
              aria-current={tab === value ? 'page' : undefined}
              onClick={() => setParams({ tab: value }, { replace: true })}
            />
          ))}
        </nav>
        <div className={classes.panel}>
          <GuardScopeContext.Provider value={scope}>
            <Panel tab={tab} mailLog={mailLog} />
          </GuardScopeContext.Provider>
        </div>
      </div>
    </Modal>
  );
}
