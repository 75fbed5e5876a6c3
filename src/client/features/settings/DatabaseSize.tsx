import { Alert, Group, Progress, Skeleton, Stack, Text } from '@mantine/core';
import { DATABASE_WARN_SHARE, backupFits, formatDecimalBytes } from '../../../shared/database-size';
import type { DatabaseSize as Size } from '../../../shared/types';

/** A share as a whole percentage, but never "0%" for a database that holds something. */
const percent = (share: number) => (share > 0 && share < 0.01 ? 'under 1%' : `${Math.round(share * 100)}%`);

/**
 * The database's size against D1's ceiling (docs/operations.md#the-10-gb-ceiling): a warning from
 * 70% of it, and another once a backup's copies would no longer fit beside the data, which with
 * copies of about 64% of the size comes first, from about 61%.
 */
export function DatabaseSize({ size }: { size: Size | undefined }) {
  if (!size) return <Skeleton height={40} aria-busy />;
  const share = size.bytes / size.limitBytes;
  const fits = backupFits(size);
  const warn = share >= DATABASE_WARN_SHARE;
  const limit = formatDecimalBytes(size.limitBytes);
  return (
    <Stack gap={6} data-testid="database-size">
      <Group justify="space-between" gap="xs">
        <Text size="sm" fw={500}>
          Database size
        </Text>
        <Text size="sm" data-testid="database-size-figure">
          {formatDecimalBytes(size.bytes)} of {limit} ({percent(share)})
        </Text>
      </Group>
      {/* A meter, not a progressbar: it shows how full the database is, not work under way. */}
      <Progress.Root>
        <Progress.Section
          value={Math.min(100, share * 100)}
          color={fits ? (warn ? 'yellow' : 'blue') : 'red'}
          withAria={false}
          role="meter"
          aria-label="Database size against its limit"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(Math.min(100, share * 100))}
          aria-valuetext={`${formatDecimalBytes(size.bytes)} of ${limit}`}
        />
      </Progress.Root>
      {warn ? (
        <Alert color="yellow" title={`The database is ${percent(share)} full`} data-testid="database-size-warning">
          At {limit} it takes no more changes. Ask whoever runs the app to make room.
        </Alert>
      ) : null}
      {fits ? null : (
        <Alert color="red" title="No room for a backup" data-testid="backup-room-warning">
          A backup copies most of the data while it runs, about {formatDecimalBytes(size.backupBytes)} more, which would take the database past {limit}. Backups are
          refused until there is room.
        </Alert>
      )}
    </Stack>
  );
}
