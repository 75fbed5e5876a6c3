import { object, string, type InferType } from 'yup';

/**
 * The key of a backup in R2: `backups/<UTC time, colons as dashes>.ndjson.gz`, or `.json` for
 * the older format. Nothing else is one, so no other object or path can be asked for by key.
 */
export const BACKUP_KEY_PATTERN = /^backups\/(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d\.\d{3}Z)\.(?:ndjson\.gz|json)$/;

export const backupDownloadQuerySchema = object({
  key: string().required('Required').matches(BACKUP_KEY_PATTERN, 'Not a backup key'),
});
export type BackupDownloadQuery = InferType<typeof backupDownloadQuerySchema>;
