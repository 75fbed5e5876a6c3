import { D1_MAX_BYTES } from './capacity';
import { BACKUP_PAGE_ROWS } from './write';

/** What the deployment may set about backups, read from its variables; a missing or malformed value keeps the default. */
export interface BackupVars {
  /** Rows per page (5,000). Tests set a handful, so a small database takes several steps. */
  BACKUP_PAGE_ROWS?: string;
  /** The ceiling a backup must fit under (D1's 10 GB). Tests set a small one. */
  D1_MAX_BYTES?: string;
}

const whole = (value: unknown, digits: number) => {
  const text = String(value ?? '').trim();
  return new RegExp(`^[1-9]\\d{0,${digits - 1}}$`).test(text) ? Number(text) : null;
};

export const backupSettings = (vars: BackupVars) => ({
  pageRows: Math.min(whole(vars.BACKUP_PAGE_ROWS, 4) ?? BACKUP_PAGE_ROWS, BACKUP_PAGE_ROWS),
  limitBytes: whole(vars.D1_MAX_BYTES, 15) ?? D1_MAX_BYTES,
});
