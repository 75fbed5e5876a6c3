import type { DatabaseSize } from './types';

/**
 * The database against D1's ceiling (docs/operations.md#the-10-gb-ceiling): the Database tab
 * warns from this share of it, and a backup is refused when its copies would not fit.
 */
export const DATABASE_WARN_SHARE = 0.7;

/** Whether a backup's copies fit beside the data under the ceiling while the backup runs. */
export const backupFits = ({ bytes, limitBytes, backupBytes }: DatabaseSize) => bytes + backupBytes <= limitBytes;

/** Bytes in decimal units, as Cloudflare states D1's ceiling ("10 GB" = 10,000,000,000 bytes). */
export const formatDecimalBytes = (bytes: number) => {
  if (bytes < 1000) return `${bytes} B`;
  const [value, unit] = bytes < 1e6 ? [bytes / 1e3, 'kB'] : bytes < 1e9 ? [bytes / 1e6, 'MB'] : [bytes / 1e9, 'GB'];
  // Whole numbers stay whole ("10 GB"), the rest get one decimal.
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
};
