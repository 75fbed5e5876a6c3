import { array, object, string, type InferType } from 'yup';
import { isIsoWeek } from '../iso-week';
import { filledParagraph } from './fields';
import { filterId, recordId } from './ids';
import { period } from './invoices';

/** A week as the timesheet API names it: ISO `YYYY-Www`, one that exists (`2025-W53` does not). */
export const isoWeek = () =>
  string().test('week', 'Must be an ISO week such as 2026-W47', (value) => value == null || isIsoWeek(value));

/** `GET timesheets?week&userId`: one person's week; without `userId`, every person's (approvers). */
export const timesheetWeekQuerySchema = object({ week: isoWeek().required('Required'), userId: filterId() });
export type TimesheetWeekQuery = InferType<typeof timesheetWeekQuerySchema>;

export const REJECT_REASON_MAX = 1000;
const reason = () => filledParagraph(REJECT_REASON_MAX, 'Say why the week is sent back').required('Say why the week is sent back');

/** `POST timesheets/{userId}/{week}/reject`: why it goes back to the person. */
export const rejectWeekSchema = object({ reason: reason() });
export type RejectWeekPayload = InferType<typeof rejectWeekSchema>;

/** Weeks one approval or rejection may name at once: one JSON array, well under D1's limits. */
export const DECIDE_WEEKS_MAX = 100;

const personWeek = object({ userId: recordId().required('Required'), week: isoWeek().required('Required') });

/** `POST timesheets/approve`: many submitted weeks approved in one write. */
export const approveWeeksSchema = object({
  weeks: array(personWeek.required()).min(1, 'Name at least one week').max(DECIDE_WEEKS_MAX, `At most ${DECIDE_WEEKS_MAX} weeks at once`).required('Required'),
});
export type ApproveWeeksPayload = InferType<typeof approveWeeksSchema>;

/** `POST timesheets/reject`: many submitted weeks sent back with one reason. */
export const rejectWeeksSchema = approveWeeksSchema.shape({ reason: reason() });
export type RejectWeeksPayload = InferType<typeof rejectWeeksSchema>;

/** `GET timesheets/unapproved?period=YYYY-MM`: the weeks with time in a billing month not yet approved. */
export const unapprovedWeeksQuerySchema = object({ period: period().required('Required') });
export type UnapprovedWeeksQuery = InferType<typeof unapprovedWeeksQuerySchema>;
