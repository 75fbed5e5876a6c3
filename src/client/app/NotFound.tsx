import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../lib/page-title';
import { PAGES } from '../lib/pages';

export function NotFound() {
  usePageTitle('Not Found');
  return (
    <Center mih="60dvh">
      <Stack align="center">
        <Title order={1} tabIndex={-1}>
          Not Found
        </Title>
        <Text c="dimmed">There is no page at this address.</Text>
        <Button component={Link} to={PAGES.dashboard} variant="light">
          Go to the dashboard
        </Button>
      </Stack>
    </Center>
  );
}
