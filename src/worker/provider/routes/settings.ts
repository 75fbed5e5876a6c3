import { Hono } from 'hono';
import { backupDownloadQuerySchema } from '../../../shared/schemas/settings';
import { writeBackup } from '../db/backup/write';
import { BACKUP_PREFIX } from '../db/backup/format';
import { listBackups } from '../db/backup/list';
import { NotFound } from '../errors/domain';
import { auditContext } from '../http/audit-context';
import { requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { queryOf } from '../http/validate';

export const settingsRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .post('/backup-db', async (c) => {
    const backup = writeBackup(c.env.DB, c.env.BACKUPS, { madeBy: { type: 'user', id: c.get('userId') }, audit: auditContext(c) });
    // The passthrough stops waiting after 10 s, sooner than a large database is written; this
    // lets the backup finish and appear in the list even when its caller got a 504.
    c.executionCtx.waitUntil(backup.catch(() => undefined));
    return c.json(await backup, 201);
  })
  .get('/backups', async (c) => c.json(await listBackups(c.env.DB, c.env.BACKUPS)))
  // A backup holds every password hash.
  .get('/backups/download', requireRole('downloadBackups'), queryOf(backupDownloadQuerySchema), async (c) => {
    const { key } = c.req.valid('query');
    const object = await c.env.BACKUPS.get(key);
    if (!object) throw new NotFound('No backup has that key');
    return new Response(object.body, {
      headers: {
        'content-type': object.httpMetadata?.contentType ?? 'application/octet-stream',
        'content-length': String(object.size),
        'content-disposition': `attachment; filename="${key.slice(BACKUP_PREFIX.length)}"`,
        'cache-control': 'no-store',
      },
    });
  });
