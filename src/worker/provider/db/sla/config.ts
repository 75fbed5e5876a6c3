import type { TicketPriority } from '../../../../shared/schemas/tickets';
import type { Calendar, CalendarHours, SlaPolicy } from '../../../../shared/sla';
import { Invalid } from '../../errors/domain';
import { lookupStore } from '../lookups';
import { assertReferencesExist } from '../references';

/**
 * Calendars and service-level policies (docs/api.md#service-levels): admin-kept records with the
 * lookups' list, version and delete rules. A calendar's hours and holidays are stored as the JSON
 * the API sends; a policy answers with the names of what it matches.
 */

interface CalendarRow {
  id: number;
  name: string;
  time_zone: string;
  hours: string;
  holidays: string;
  created_at: string;
  updated_at: string;
  version: number;
}

const toCalendar = (row: CalendarRow): Calendar => ({
  id: row.id,
  name: row.name,
  timeZone: row.time_zone,
  hours: JSON.parse(row.hours) as CalendarHours[],
  holidays: JSON.parse(row.holidays) as string[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

const calendarStore = lookupStore({
  table: 'calendars',
  entity: 'calendar',
  noun: 'calendar',
  columns: { name: 'name', timeZone: 'time_zone', hours: 'hours', holidays: 'holidays' },
  toApi: toCalendar,
  usedBy: [{ table: 'sla_policies', column: 'calendar_id', noun: 'service-level policies' }],
});

/** Hours and holidays go in as JSON text; a day's spans are kept in weekday and time order. */
const calendarColumns = (values: Record<string, unknown>) => ({
  ...values,
  ...(Array.isArray(values.hours)
    ? { hours: JSON.stringify([...(values.hours as CalendarHours[])].sort((a, b) => a.day - b.day || a.from.localeCompare(b.from))) }
    : {}),
  ...(Array.isArray(values.holidays) ? { holidays: JSON.stringify([...new Set(values.holidays as string[])].sort()) } : {}),
});

export const calendars: typeof calendarStore = {
  ...calendarStore,
  insert: (db, values, audit) => calendarStore.insert(db, calendarColumns(values), audit),
  update: (db, id, changes, audit, version) => calendarStore.update(db, id, calendarColumns(changes), audit, version),
};

interface PolicyRow {
  id: number;
  name: string;
  position: number;
  company_id: number | null;
  company_name: string | null;
  category_id: number | null;
  category_name: string | null;
  // The table's CHECK holds it to the ticket priorities.
  priority: TicketPriority | null;
  calendar_id: number;
  calendar_name: string;
  first_response_minutes: number;
  resolution_minutes: number;
  created_at: string;
  updated_at: string;
  version: number;
}

const toPolicy = (row: PolicyRow): SlaPolicy => ({
  id: row.id,
  name: row.name,
  position: row.position,
  companyId: row.company_id,
  companyName: row.company_name,
  categoryId: row.category_id,
  categoryName: row.category_name,
  priority: row.priority,
  calendarId: row.calendar_id,
  calendarName: row.calendar_name,
  firstResponseMinutes: row.first_response_minutes,
  resolutionMinutes: row.resolution_minutes,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  version: row.version,
});

const policyStore = lookupStore({
  table: 'sla_policies',
  entity: 'sla_policy',
  noun: 'service-level policy',
  columns: {
    name: 'name',
    position: 'position',
    companyId: 'company_id',
    categoryId: 'category_id',
    priority: 'priority',
    calendarId: 'calendar_id',
    firstResponseMinutes: 'first_response_minutes',
    resolutionMinutes: 'resolution_minutes',
  },
  toApi: toPolicy,
  usedBy: [],
  source: `(SELECT p.*, co.name AS company_name, ca.name AS category_name, cal.name AS calendar_name
    FROM sla_policies p JOIN calendars cal ON cal.id = p.calendar_id
    LEFT JOIN companies co ON co.id = p.company_id LEFT JOIN ticket_categories ca ON ca.id = p.category_id) AS sla_policies`,
  orderBy: 'position, id',
});

/**
 * The resolution target may not be shorter than the first response: with both in one request the
 * schema says so; with one changed alone the table's CHECK refuses it inside the UPDATE, answered
 * here as the same 400.
 */
const targetsInOrder = async <T>(write: Promise<T>): Promise<T> => {
  try {
    return await write;
  } catch (error) {
    if (error instanceof Error && /CHECK constraint failed/i.test(error.message) && /resolution_minutes/.test(error.message)) {
      const message = 'Must not be shorter than the first response target';
      throw new Invalid(`resolutionMinutes: ${message}`, { resolutionMinutes: [message] });
    }
    throw error;
  }
};

const referencesOf = (values: Record<string, unknown>) => ({
  companyId: values.companyId as number | null | undefined,
  categoryId: values.categoryId as number | null | undefined,
  calendarId: values.calendarId as number | undefined,
});

/** Policies name an existing company, category and calendar (400 otherwise, not a foreign-key failure). */
export const slaPolicies: typeof policyStore = {
  ...policyStore,
  insert: async (db, values, audit) => {
    await assertReferencesExist(db, referencesOf(values));
    return targetsInOrder(policyStore.insert(db, values, audit));
  },
  update: async (db, id, changes, audit, version) => {
    await assertReferencesExist(db, referencesOf(changes));
    return targetsInOrder(policyStore.update(db, id, changes, audit, version));
  },
};
