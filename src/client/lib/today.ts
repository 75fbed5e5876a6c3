import { localDay } from '../../shared/dates';

/** Today in the person's own calendar (the browser's time zone), as the API's `YYYY-MM-DD`. */
export const today = () => localDay(new Date());
