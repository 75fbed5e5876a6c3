import type { DashboardSummary } from '../../../shared/types';
import { useApi } from '../../lib/use-api';

export const DASHBOARD_SUMMARY = 'dashboard/summary';

export const useDashboard = () => useApi<DashboardSummary>(DASHBOARD_SUMMARY);
