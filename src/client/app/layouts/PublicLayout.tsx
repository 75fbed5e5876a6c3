import { Box } from '@mantine/core';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';

/**
 * The `_public` layout: pages outside the signed-in shell, on a quiet background, inside the
 * page's one `main` landmark. Screens that are not routes of their own (Not Found, the error screen
 * when the shell itself failed) pass their content as children.
 */
export function PublicLayout({ children }: { children?: ReactNode }) {
  return (
    <Box mih="100dvh" bg="var(--mantine-color-body)" component="main">
      {children ?? <Outlet />}
    </Box>
  );
}
