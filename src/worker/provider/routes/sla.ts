import { createCalendarSchema, createSlaPolicySchema, updateCalendarSchema, updateSlaPolicySchema } from '../../../shared/schemas/sla';
import { calendars, slaPolicies } from '../db/sla/config';
import { lookupRoutes } from './lookups';

/**
 * Calendars and service-level policies (docs/api.md#service-levels): every role reads them (the
 * ticket clock names its policy), admins change them, with the lookups' list, version and delete
 * conventions.
 */
export const calendarRoutes = lookupRoutes(calendars, 'Calendar', 'manageServiceLevels', createCalendarSchema, updateCalendarSchema);
export const slaPolicyRoutes = lookupRoutes(slaPolicies, 'Service-level policy', 'manageServiceLevels', createSlaPolicySchema, updateSlaPolicySchema);
