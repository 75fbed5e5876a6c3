import { Hono } from 'hono';
import { listBackups, writeBackup } from '../db/backup';
import { auditContext } from '../http/audit-context';
import { requireAuth, type ProviderEnv } from '../http/auth';

export const settingsRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .post('/backup-db', async (c) => c.json(await writeBackup(c.env.DB, c.env.BACKUPS, auditContext(c)), 201))
  .get('/backups', async (c) => c.json({ items: await listBackups(c.env.BACKUPS) }));
