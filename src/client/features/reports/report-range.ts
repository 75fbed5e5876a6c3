import { ValidationError } from 'yup';
import { addDays, addMonths, monthBounds, quarterBounds } from '../../../shared/dates';
import { ticketReportQuerySchema } from '../../../shared/schemas/reports';

export interface DayRange {
  from: string;
  to: string;
}

/** What the shared report schema (the 366-day rule included) says about each end of a range. */
export const rangeErrors = (range: DayRange): Partial<DayRange> => {
  try {
    // An empty field (or a half-typed one, which a date input reports as empty) is missing.
    ticketReportQuerySchema.validateSync({ from: range.from || undefined, to: range.to || undefined }, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: Partial<DayRange> = {};
    for (const inner of error.inner) {
      const field = inner.path === 'from' ? 'from' : 'to';
      errors[field] ??= inner.message;
    }
    return errors;
  }
};

export const isValidRange = (range: DayRange) => Object.keys(rangeErrors(range)).length === 0;

/** The report's default: the last 365 days, today included. */
export const lastYear = (today: string): DayRange => ({ from: addDays(today, -364), to: today });

export const RANGE_PRESETS: readonly { label: string; range: (today: string) => DayRange }[] = [
  { label: 'Last 7 days', range: (today) => ({ from: addDays(today, -6), to: today }) },
  { label: 'This month', range: (today) => ({ from: monthBounds(today).from, to: today }) },
  { label: 'Last quarter', range: (today) => quarterBounds(addMonths(quarterBounds(today).from, -3)) },
];
