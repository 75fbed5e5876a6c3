import { BACKUP_KEY_PATTERN } from '../../../../shared/schemas/settings';

/**
 * The backup file of docs/operations.md#backups, gzip-compressed NDJSON, one JSON value per line, each line
 * ending in '\n':
 *   {"format":2,"createdAt":…,"schemaVersion":…,"tables":[…]}   the header
 *   {"t":"<table>","r":{…row}}                                   one per row, table by table
 *   {"manifest":{"<table>":{"rows":n,"sha256":"<hex>"}}}         the last line
 * A table's sha256 is the SHA-256 of the exact bytes of its row lines in file order, each with
 * its '\n'; a table without rows has the hash of no bytes.
 */
export const BACKUP_FORMAT = 2;
/** Backups written before the streamed format: one JSON object, `{ version: 1, createdAt, tables }`. */
export const LEGACY_BACKUP_FORMAT = 1;
export const BACKUP_PREFIX = 'backups/';

export type Row = Record<string, unknown>;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  createdAt: string;
  /** The number of the newest migration applied to the database the backup was taken from. */
  schemaVersion: number;
  tables: string[];
}

export interface TableSummary {
  rows: number;
  sha256: string;
}

export type Manifest = Record<string, TableSummary>;

/** Incremental SHA-256: workerd's DigestStream in the Worker, node:crypto in scripts. */
export interface Sha256 {
  update(bytes: Uint8Array): void | Promise<void>;
  hex(): Promise<string>;
}
export type Sha256Factory = () => Sha256;

export const toHex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 through workerd's `crypto.DigestStream`, which hashes without holding the input. */
export const workerdSha256: Sha256Factory = () => {
  const stream = new crypto.DigestStream('SHA-256');
  const writer = stream.getWriter();
  return {
    update: (bytes) => writer.write(bytes),
    hex: async () => {
      await writer.close();
      return toHex(await stream.digest);
    },
  };
};

/** The UTC time with the colons some file systems refuse replaced (BACKUP_KEY_PATTERN). */
export const backupKey = (createdAt: string) => `${BACKUP_PREFIX}${createdAt.replace(/:/g, '-')}.ndjson.gz`;

/** The time a backup was taken, read from its key; null for a key that names no backup. */
export const createdAtOfKey = (key: string): string | null => {
  const match = BACKUP_KEY_PATTERN.exec(key);
  if (!match) return null;
  const iso = `${match[1]}:${match[2]}:${match[3]}`;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
};

/** Who made a backup, as R2 custom metadata `madeBy` holds it: `user:<id>` or `schedule`. */
export type BackupMaker = { type: 'user'; id: number } | { type: 'schedule' };

export const makerTag = (maker: BackupMaker) => (maker.type === 'user' ? `user:${maker.id}` : 'schedule');

export const parseMakerTag = (tag: string | undefined): BackupMaker | null => {
  if (tag === 'schedule') return { type: 'schedule' };
  const match = /^user:([1-9]\d{0,15})$/.exec(tag ?? '');
  return match ? { type: 'user', id: Number(match[1]) } : null;
};
