import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import classes from './stat-card.module.css';

interface StatCardProps {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  /** Where the figure's records are listed: the whole card becomes that link (then no links in `hint`). */
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
  // The link's name is the label and, once loaded, the figure ("Overdue: 447").
  const name = typeof value === 'string' || typeof value === 'number' ? `${label}: ${value}` : label;
  return (
    <Paper withBorder p="md" radius="md" component={Link} to={to} aria-label={name} className={classes.link}>
      {body}
    </Paper>
  );
}
