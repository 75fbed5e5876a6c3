import { Button, Center, Code, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { usePageTitle } from '../lib/page-title';
import { NotFound } from './NotFound';

const describe = (error: unknown) => {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
};

/** The default error screen: 'Something went wrong!' with the details behind a toggle. */
export function ErrorScreen() {
  const error = useRouteError();
  const [open, setOpen] = useState(false);
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  usePageTitle(notFound ? 'Not Found' : 'Something went wrong');
  if (notFound) return <NotFound />;

  return (
    <Center mih="60dvh" p="md">
      <Stack align="center" maw={720} w="100%">
        <Title order={1} tabIndex={-1}>
          Something went wrong!
        </Title>
        <Text c="dimmed">Try again, or reload the page.</Text>
        <Button variant="light" onClick={() => setOpen((value) => !value)} aria-expanded={open}>
          {open ? 'Hide Error' : 'Show Error'}
        </Button>
        {open ? (
          <Code block w="100%" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="error-details">
            {describe(error)}
          </Code>
        ) : null}
      </Stack>
    </Center>
  );
}
