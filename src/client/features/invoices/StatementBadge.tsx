import { Badge } from '@mantine/core';
import type { Statement } from '../../../shared/types';
import { STATEMENT_STATUS_COLORS, STATEMENT_STATUS_LABELS, statementState } from './labels';

/** A statement's or invoice's status as people read it, "Partially paid" included. */
export function StatementBadge({ statement }: { statement: Pick<Statement, 'status' | 'paidCents' | 'balanceCents'> }) {
  const state = statementState(statement);
  return (
    <Badge color={STATEMENT_STATUS_COLORS[state]} variant="light">
      {STATEMENT_STATUS_LABELS[state]}
    </Badge>
  );
}
