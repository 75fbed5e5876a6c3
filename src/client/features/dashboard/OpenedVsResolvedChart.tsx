import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import type { DashboardSummary } from '../../../shared/types';

/** Tickets opened and resolved per day, as an area chart. */
export function OpenedVsResolvedChart({ days }: { days: DashboardSummary['openedVsResolved'] }) {
  return (
    <AreaChart
      h={240}
      data={days.map((d) => ({ ...d, day: d.day.slice(5) }))}
      dataKey="day"
      series={[
        { name: 'opened', label: 'Opened', color: 'blue.6' },
        { name: 'resolved', label: 'Resolved', color: 'green.6' },
      ]}
      curveType="monotone"
      withLegend
      data-testid="dashboard-chart"
    />
  );
}
