import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePageTitle } from '../page-title';

/**
 * The heading every page starts with, with room for the page's actions on the right. It names the
 * document after the page, and takes focus after a navigation (tabIndex -1: focusable by script only).
 */
export function PageTitle({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  usePageTitle(title);
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
      <div>
        <Title order={1} size="h2" tabIndex={-1}>
          {title}
        </Title>
        {description ? <Text c="dimmed">{description}</Text> : null}
      </div>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
