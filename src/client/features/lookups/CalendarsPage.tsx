import { Text } from '@mantine/core';
import { createCalendarSchema } from '../../../shared/schemas/sla';
import type { Calendar, CalendarHours } from '../../../shared/sla';
import { formatDateTime } from '../../lib/format';
import { TextField } from '../../lib/form/fields';
import { Facts } from '../../lib/ui/Facts';
import { lookupApi } from './api';
import { TimeZoneField } from '../../lib/form/TimeZoneField';
import { HolidaysField, WEEKDAYS, WeeklyHoursField } from './CalendarFields';
import { LookupPage, type LookupConfig } from './LookupPage';

/** "Monday 09:00–17:30", one span a line; none is around the clock. */
const hoursText = (hours: CalendarHours[]) =>
  hours.length ? hours.map((span) => `${WEEKDAYS[span.day - 1]} ${span.from}–${span.to}`).join('\n') : 'Around the clock';

const config: LookupConfig<Calendar> = {
  title: 'Calendars',
  description: 'When service-level time counts',
  noun: 'Calendar',
  entity: 'calendar',
  permission: 'manageServiceLevels',
  api: lookupApi('calendars'),
  schema: createCalendarSchema,
  blank: { name: '', timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, hours: [], holidays: [] },
  valuesOf: ({ name, timeZone, hours, holidays }) => ({ name, timeZone, hours, holidays }),
  instead: 'Move those policies to another calendar first.',
  columns: [
    { key: 'name', label: 'Name', render: (c) => <Text size="sm" fw={500}>{c.name}</Text> },
    { key: 'timeZone', label: 'Time zone', render: (c) => <Text size="sm">{c.timeZone}</Text> },
    { key: 'hours', label: 'Hours', visibleFrom: 'sm', render: (c) => <Text size="sm" lineClamp={1}>{c.hours.length ? `${c.hours.length} spans a week` : 'Around the clock'}</Text> },
  ],
  fields: (
    <>
      <TextField name="name" label="Name" />
      <TimeZoneField name="timeZone" label="Time zone" description="Hours and holidays are read in this zone" />
      <WeeklyHoursField name="hours" />
      <HolidaysField name="holidays" />
    </>
  ),
  facts: (c) => [
    ['Name', c.name],
    ['Time zone', c.timeZone],
    ['Hours', <Text span size="sm" style={{ whiteSpace: 'pre-line' }}>{hoursText(c.hours)}</Text>],
    ['Holidays', c.holidays.length ? c.holidays.join(', ') : 'None'],
  ],
  details: (c) => <Facts items={[['Created', formatDateTime(c.createdAt)], ['Updated', formatDateTime(c.updatedAt)]]} />,
};

export function CalendarsPage() {
  return <LookupPage config={config} />;
}
