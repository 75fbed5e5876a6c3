import { apiPath } from './endpoints';
import { today } from './today';
import { useApi } from './use-api';

/**
 * The dashboard's figures, read by the dashboard and by the pages its cards lead to (the GIFS
 * overview shows its Unbilled figure), so both show the same number.
 *
 * The summary's address for the person's today (overdue and this week follow their calendar); the
 * route table asks for it while the page's code loads.
 */
export const dashboardSummaryPath = () => apiPath('GET /dashboard/summary', { query: { today: today() } });

export const useDashboard = () => useApi('GET /dashboard/summary', { query: { today: today() } });

/**
 * The same summary for a page that shows only its day-independent figures (Unbilled). Asked
 * without `today`, so it is a read of its own rather than the dashboard's entry handed over while
 * one page replaces the other.
 */
export const useDashboardFigures = () => useApi('GET /dashboard/summary', { query: {} });
