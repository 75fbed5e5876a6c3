import { apiPath } from '../../lib/endpoints';
import { useApi } from '../../lib/use-api';

/** The summary's address, which the route table asks for while the page's code loads. */
export const DASHBOARD_SUMMARY = apiPath('GET /dashboard/summary');

export const useDashboard = () => useApi('GET /dashboard/summary');
