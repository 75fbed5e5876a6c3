import { Box } from '@mantine/core';
import { Outlet } from 'react-router-dom';

/** The `_public` layout: pages for signed-out visitors, on a quiet background. */
export function PublicLayout() {
  return (
    <Box mih="100dvh" bg="var(--mantine-color-body)" component="main">
      <Outlet />
    </Box>
  );
}
