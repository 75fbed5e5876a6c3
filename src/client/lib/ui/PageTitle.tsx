import { Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The heading every page starts with, with room for the page's actions on the right. */
export function PageTitle({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description ? <Text c="dimmed">{description}</Text> : null}
      </div>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
