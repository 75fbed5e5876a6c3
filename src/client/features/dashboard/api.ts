import type { DashboardSummary } from '../../../shared/types';
import { useApi } from '../../lib/use-api';

export const useDashboard = () => useApi<DashboardSummary>('dashboard/summary');
