import { Hono } from 'hono';
import { API_VERSION } from '../../shared/constants';
import type { ProviderEnv } from './http/auth';
import { onError } from './http/errors';
import { noteRequest } from './http/request-note';
import { publishChanges } from './live/publish';
import { attachmentRoutes } from './routes/attachments';
import { auditRoutes } from './routes/audit';
import { accessRoutes } from './routes/access';
import { authRoutes } from './routes/auth';
import { passkeyRoutes } from './routes/passkeys';
import { apiTokenRoutes } from './routes/api-tokens';
import { invoiceRoutes } from './routes/invoices';
import { liveRoutes } from './routes/live';
import { mailLogRoutes, notificationSettingsRoutes } from './routes/mail';
import { notificationRoutes } from './routes/notifications';
import { companyRoutes, ticketCategoryRoutes } from './routes/lookups';
import { dashboardRoutes, reportRoutes } from './routes/reports';
import { searchRoutes } from './routes/search';
import { settingsRoutes } from './routes/settings';
import { calendarRoutes, slaPolicyRoutes } from './routes/sla';
import { ticketRoutes } from './routes/tickets';
import { timesheetRoutes } from './routes/timesheets';
import { userRoutes } from './routes/users';
import { webhookRoutes } from './routes/webhooks';
import { enqueueWebhooks } from './webhooks/enqueue';

// What the rest of the Worker may use of the provider, and nothing else (held by lint).
export { LiveHub } from './live/hub';
export { shareNote, type RequestNote } from './http/request-note';
export { backupOnSchedule, DAILY_BACKUP_CRON, slaAlertsOnSchedule } from './scheduled';
export { mailOnSchedule } from './mail/send';
export { refuseMail } from './mail/refuse';
export { receiveMail } from './mail/receive';
export { handleWebhookBatch, type WebhookMessage } from './webhooks/consumer';

/** The embedded provider API: what UPSTREAM_API_URL would otherwise serve, on D1 and R2. */
export const provider = new Hono<ProviderEnv>()
  .basePath(`/${API_VERSION}`)
  .use(noteRequest)
  .use(publishChanges)
  .use(enqueueWebhooks)
  .route('/auth/passkeys', passkeyRoutes)
  .route('/auth/api-tokens', apiTokenRoutes)
  .route('/auth', authRoutes)
  .route('/auth/access', accessRoutes)
  .route('/users/me/notification-settings', notificationSettingsRoutes)
  .route('/users', userRoutes)
  .route('/settings/mail', mailLogRoutes)
  .route('/settings', settingsRoutes)
  .route('/companies', companyRoutes)
  .route('/ticket-categories', ticketCategoryRoutes)
  .route('/calendars', calendarRoutes)
  .route('/sla-policies', slaPolicyRoutes)
  .route('/tickets', ticketRoutes)
  .route('/invoices', invoiceRoutes)
  .route('/reports', reportRoutes)
  .route('/timesheets', timesheetRoutes)
  .route('/dashboard', dashboardRoutes)
  .route('/search', searchRoutes)
  .route('/live', liveRoutes)
  .route('/notifications', notificationRoutes)
  .route('/webhooks', webhookRoutes)
  .route('/', attachmentRoutes)
  .route('/', auditRoutes)
  .notFound((c) => c.json({ message: 'Not Found' }, 404))
  .onError(onError);
