import { SimpleGrid } from '@mantine/core';
import { AGING_BUCKETS, type AgingBucket } from '../../../shared/schemas/payments';
import type { AgingSummary } from '../../../shared/types';
import { formatCents } from '../../lib/format';
import { StatCard } from '../../lib/ui/StatCard';

const BUCKET_LABELS: Record<AgingBucket, string> = {
  current: 'Not yet due',
  days1to30: '1–30 days overdue',
  days31to60: '31–60 days overdue',
  days61to90: '61–90 days overdue',
  days90plus: 'Over 90 days overdue',
};

// GIFS statements and Autofi and 3D Tracking invoices alike.
const documents = (n: number) => `${n} ${n === 1 ? 'document' : 'documents'}`;

/** What issued statements and month invoices still owe, by days past their due date. */
export function AgingCards({ aging }: { aging: AgingSummary | undefined }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} mb="md" aria-busy={!aging} data-testid="aging">
      {AGING_BUCKETS.map((bucket) => (
        <StatCard
          key={bucket}
          label={BUCKET_LABELS[bucket]}
          value={aging ? formatCents(aging.buckets[bucket].balanceCents) : '…'}
          hint={aging ? documents(aging.buckets[bucket].statements) : undefined}
        />
      ))}
    </SimpleGrid>
  );
}
