import { Avatar, Button, Menu, SegmentedControl, Stack, Text, VisuallyHidden, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../lib/auth-store';
import { endThisSession } from '../../lib/sign-out';
import { useSettingsParams } from '../../lib/addresses/settings';
import { PAGES } from '../../lib/pages';

const THEMES: { label: string; value: MantineColorScheme }[] = [
  { label: 'Light', value: 'light' },
  { label: 'Dark', value: 'dark' },
  { label: 'System', value: 'auto' },
];

/** The header's account menu: who is signed in, settings, theme and logout. */
export function UserMenu() {
  const { user } = useAuth();
  const [, setSettings] = useSettingsParams();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const navigate = useNavigate();
  const name = user ? `${user.firstName} ${user.surname}`.trim() : 'Signed in';
  const initials = user ? `${user.firstName[0] ?? ''}${user.surname[0] ?? ''}` : '?';

  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <Button
          data-settings-opener
          variant="subtle"
          color="gray"
          // The initials repeat the name beside them: decoration, not part of the button's name.
          leftSection={
            <Avatar size="sm" color="blue" aria-hidden>
              {initials}
            </Avatar>
          }
        >
          {/* The name comes from the text, so it always holds what is visible (WCAG 2.5.3). */}
          <Text size="sm" fw={500} visibleFrom="xs" data-testid="user-name">
            {name}
          </Text>
          <VisuallyHidden>Account menu</VisuallyHidden>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user?.email}</Menu.Label>
        <Menu.Item onClick={() => setSettings({ settings: true, tab: 'profile' })}>Settings</Menu.Item>
        <Stack gap={4} px="sm" py="xs">
          <Text size="xs" c="dimmed">
            Theme
          </Text>
          <SegmentedControl
            size="xs"
            fullWidth
            data={THEMES}
            value={colorScheme}
            onChange={(value) => setColorScheme(value as MantineColorScheme)}
            aria-label="Theme"
          />
        </Stack>
        <Menu.Divider />
        <Menu.Item
          color="red"
          onClick={() => {
            // Leave first: clearing the token while still on the page would make the guard
            // send the next person to sign in back to this page.
            navigate(PAGES.login, { replace: true });
            void endThisSession();
          }}
        >
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
