import { Hono, type Context } from 'hono';
import { isIsoWeek } from '../../../shared/iso-week';
import { approveWeeksSchema, rejectWeekSchema, rejectWeeksSchema, timesheetWeekQuerySchema, unapprovedWeeksQuerySchema } from '../../../shared/schemas/timesheets';
import { findWeek, listWeeks, unapprovedWeeks } from '../db/timesheets/read';
import { approveWeek, decideWeeks, rejectWeek, reopenWeek, submitWeek, type PersonWeek } from '../db/timesheets/transitions';
import { auditContext } from '../http/audit-context';
import { assertMay, requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { badRequest, forbidden } from '../http/errors';
import { foundOr404, readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';

const NOUN = 'Person';

/** The person-week a path names: `/timesheets/{userId}/{week}/…`, the week ISO (`2026-W47`). */
const weekOf = (c: Context<ProviderEnv>): PersonWeek => {
  const week = c.req.param('week') ?? '';
  if (!isIsoWeek(week)) throw badRequest('week must be an ISO week such as 2026-W47', { week: ['Must be an ISO week such as 2026-W47'] });
  return { userId: readId(c, 'userId'), week };
};

/** Approvers decide other people's weeks, never their own (docs/architecture.md#timesheets). */
const othersWeek = (c: Context<ProviderEnv>, target: PersonWeek) => {
  if (target.userId === c.get('userId')) throw forbidden('Your own week is approved by someone else');
  return target;
};

/** Timesheets (docs/api.md#timesheets). Each write's rules are also conditions of its batch. */
export const timesheetRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/', queryOf(timesheetWeekQuerySchema), async (c) => {
    const { week, userId } = c.req.valid('query');
    if (userId !== undefined) return c.json(foundOr404(await findWeek(c.env.DB, userId, week), NOUN));
    await assertMay(c, 'approveTimesheets');
    return c.json({ items: await listWeeks(c.env.DB, week) });
  })
  .get('/unapproved', queryOf(unapprovedWeeksQuerySchema), async (c) => c.json(await unapprovedWeeks(c.env.DB, c.req.valid('query').period)))
  .post('/approve', requireRole('approveTimesheets'), jsonBody(approveWeeksSchema), async (c) =>
    c.json(await decideWeeks(c.env.DB, auditContext(c), c.req.valid('json').weeks)),
  )
  .post('/reject', requireRole('approveTimesheets'), jsonBody(rejectWeeksSchema), async (c) => {
    const { weeks, reason } = c.req.valid('json');
    return c.json(await decideWeeks(c.env.DB, auditContext(c), weeks, reason));
  })
  .post('/:userId/:week/submit', async (c) => {
    const target = weekOf(c);
    if (target.userId !== c.get('userId')) throw forbidden('Only the person can submit their own week');
    return c.json(await submitWeek(c.env.DB, auditContext(c), target));
  })
  .post('/:userId/:week/approve', requireRole('approveTimesheets'), async (c) =>
    c.json(await approveWeek(c.env.DB, auditContext(c), othersWeek(c, weekOf(c)))),
  )
  .post('/:userId/:week/reject', requireRole('approveTimesheets'), jsonBody(rejectWeekSchema), async (c) => {
    const target = othersWeek(c, weekOf(c));
    return c.json(await rejectWeek(c.env.DB, auditContext(c), target, c.req.valid('json').reason));
  })
  .post('/:userId/:week/reopen', requireRole('reopenTimesheets'), async (c) =>
    c.json(await reopenWeek(c.env.DB, auditContext(c), othersWeek(c, weekOf(c)))),
  );
