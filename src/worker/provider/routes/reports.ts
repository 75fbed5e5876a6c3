import { Hono } from 'hono';
import { dashboardQuerySchema, slaReportQuerySchema, ticketReportQuerySchema, timesheetQuerySchema } from '../../../shared/schemas/reports';
import { dashboardSummary } from '../db/dashboard';
import { ticketReport, timesheet } from '../db/reports';
import { slaReport } from '../db/sla/report';
import { requireAuth, type ProviderEnv } from '../http/auth';
import { queryOf } from '../http/validate';

export const reportRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/timesheet', queryOf(timesheetQuerySchema), async (c) => c.json(await timesheet(c.env.DB, c.req.valid('query'))))
  .get('/tickets', queryOf(ticketReportQuerySchema), async (c) => c.json(await ticketReport(c.env.DB, c.req.valid('query'))))
  .get('/sla', queryOf(slaReportQuerySchema), async (c) => c.json(await slaReport(c.env.DB, c.req.valid('query'))));

export const dashboardRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/summary', queryOf(dashboardQuerySchema), async (c) => c.json(await dashboardSummary(c.env.DB, c.get('userId'), c.req.valid('query').today)));
