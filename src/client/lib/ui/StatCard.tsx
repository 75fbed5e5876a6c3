import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One figure with its label, for the rows of totals on dashboards and ledgers. */
export function StatCard({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz="xl" fw={700} mt={4} data-testid={`stat-${label.toLowerCase().replace(/\W+/g, '-')}`}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}
