import { apiPath } from '../../lib/endpoints';
import { today } from '../../lib/today';
import { useApi } from '../../lib/use-api';

/**
 * The summary's address for the person's today (overdue and this week follow their calendar); the
 * route table asks for it while the page's code loads.
 */
export const dashboardSummaryPath = () => apiPath('GET /dashboard/summary', { query: { today: today() } });

export const useDashboard = () => useApi('GET /dashboard/summary', { query: { today: today() } });
