import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import classes from './stat-card.module.css';

interface StatCardProps {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  /**
   * Where the figure's records are listed: the whole card becomes that link, named by its text
   * ("Overdue 447"; the label and figure are separate blocks). Then `hint` holds no links.
   */
  to?: string;
}

/** One figure with its label, for the rows of totals on dashboards and ledgers. */
export function StatCard({ label, value, hint, to }: StatCardProps) {
  const body = (
    <>
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
    </>
  );
  if (!to) {
    return (
      <Paper withBorder p="md" radius="md">
        {body}
      </Paper>
    );
  }
  return (
    <Paper withBorder p="md" radius="md" component={Link} to={to} className={classes.link}>
      {body}
    </Paper>
  );
}
