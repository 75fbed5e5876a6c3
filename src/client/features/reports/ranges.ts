import { addDays, addMonths, monthBounds, weekBounds } from '../../../shared/dates';
import type { RangeMode } from '../../lib/addresses/reports';


/** The week (Monday to Sunday) or calendar month holding `anchor`, as YYYY-MM-DD bounds. */
export const rangeAround = (mode: RangeMode, anchor: string) => (mode === 'week' ? weekBounds(anchor) : monthBounds(anchor));

/** The same kind of range one step earlier (-1) or later (+1). */
export const shiftRange = (mode: RangeMode, from: string, step: -1 | 1) =>
  rangeAround(mode, mode === 'week' ? addDays(from, step * 7) : addMonths(from, step));
