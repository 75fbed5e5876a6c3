import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PAGES } from '../pages';

/** What a page shows, inside the shell, to a role that may not open it. */
export function NoAccess({ who }: { who: string }) {
  return (
    <Center mih="50dvh">
      <Stack align="center" maw={520} gap="sm">
        <Title order={1} ta="center">
          You do not have access to this page
        </Title>
        <Text ta="center">This page is open to {who}. If you need it for your work, ask an administrator.</Text>
        <Button component={Link} to={PAGES.dashboard} variant="light">
          Go to the dashboard
        </Button>
      </Stack>
    </Center>
  );
}
