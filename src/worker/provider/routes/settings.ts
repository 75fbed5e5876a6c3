import { Hono } from 'hono';
import { backupDownloadQuerySchema } from '../../../shared/schemas/settings';
import { backupByHand } from '../db/backup/by-hand';
import { BACKUP_PREFIX } from '../db/backup/format';
import { listBackups } from '../db/backup/list';
import { backupSettings } from '../db/backup/vars';
import { NotFound } from '../errors/domain';
import { auditContext } from '../http/audit-context';
import { requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { queryOf } from '../http/validate';

export const settingsRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  // docs/api.md#settings-backups: 201 with the backup when one step was enough, else 202 and the
  // every-minute trigger finishes it; 409 while another runs or when its copies would not fit.
  .post('/backup-db', async (c) => {
    const outcome = await backupByHand(c.env.DB, c.env.BACKUPS, { madeBy: { type: 'user', id: c.get('userId') }, audit: auditContext(c), ...backupSettings(c.env) });
    return outcome.done ? c.json(outcome.backup, 201) : c.json({ runId: outcome.runId }, 202);
  })
  .get('/backups', async (c) => c.json(await listBackups(c.env.DB, c.env.BACKUPS, backupSettings(c.env).limitBytes)))
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
