import { backupFits, formatDecimalBytes } from '../../../../shared/database-size';
import type { DatabaseSize } from '../../../../shared/types';
import { Conflict } from '../../errors/domain';

/** D1's ceiling per database on the Workers Paid plan: 10 GB, read as decimal, the smaller reading. */
export const D1_MAX_BYTES = 10_000_000_000;

/**
 * What a backup's copies add while it runs, as a share of the database: every table but the audit
 * log, without their indexes. On the scale database (about 5 M rows) the copies came to 64% of its
 * size; a database with a larger share of audit log needs less, one with less needs more.
 */
export const BACKUP_COPY_SHARE = 0.64;

export const databaseSize = (bytes: number, limitBytes: number): DatabaseSize => ({ bytes, limitBytes, backupBytes: Math.ceil(bytes * BACKUP_COPY_SHARE) });

/** A second backup while one runs: its copies would hold the data a third time, for nothing. */
export class BackupRunning extends Conflict {
  constructor(startedAt: string | null) {
    const since = startedAt ? `, started ${startedAt.slice(0, 16).replace('T', ' ')} UTC` : '';
    super(`A backup is already running${since}. It goes on by itself; the list shows it when it is done.`);
  }
}

/** A backup whose copies would take the database past D1's ceiling, where every write fails. */
export class BackupWontFit extends Conflict {
  constructor({ bytes, limitBytes, backupBytes }: DatabaseSize) {
    super(
      `Not enough room for a backup: the database is ${formatDecimalBytes(bytes)} of D1's ${formatDecimalBytes(limitBytes)}, and a backup needs about ${formatDecimalBytes(backupBytes)} more while it runs.`,
    );
  }
}

/** Refuses a backup that would not fit; the size is the one D1 reported with the last answer. */
export const checkRoom = (size: DatabaseSize) => {
  if (!backupFits(size)) throw new BackupWontFit(size);
};
