import { Box, ColorSwatch, Group, Paper, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { DashboardSummary } from '../../../shared/types';
import { formatDate, formatShortDay } from '../../lib/format';
import classes from './opened-vs-resolved-chart.module.css';
import { countTicks, labelledIndexes, nearestIndex, seriesPaths, xOf, yOf, type PlotBox } from './trend-geometry';

type Day = DashboardSummary['openedVsResolved'][number];

const HEIGHT = 240;
// The right margin holds half of the last day's label, which is centred on the last point.
const MARGIN = { top: 8, right: 20, bottom: 24, left: 36 };
const MIN_LABEL_GAP = 48;
const SERIES = [
  { key: 'opened', label: 'Opened', color: 'var(--mantine-color-blue-6)' },
  { key: 'resolved', label: 'Resolved', color: 'var(--mantine-color-green-6)' },
] as const;

const total = (days: Day[], key: 'opened' | 'resolved') => days.reduce((sum, day) => sum + day[key], 0);

/**
 * Tickets opened and resolved per day, drawn as plain SVG. The dashboard is the page staff open
 * most; the chart library cost it about 100 kB of script and 150 ms of main-thread work per visit
 * for two series of thirty points. The reports keep the library for their larger charts.
 */
export function OpenedVsResolvedChart({ days }: { days: Day[] }) {
  const { ref, width } = useElementSize<HTMLDivElement>();
  const [active, setActive] = useState<number | null>(null);
  const box: PlotBox = { left: MARGIN.left, top: MARGIN.top, width: Math.max(width - MARGIN.left - MARGIN.right, 1), height: HEIGHT - MARGIN.top - MARGIN.bottom };
  const ticks = countTicks(Math.max(0, ...days.flatMap((day) => [day.opened, day.resolved])));
  const top = ticks.at(-1) ?? 1;
  const labelled = labelledIndexes(days.length, box.width, MIN_LABEL_GAP);
  const activeDay = active === null ? undefined : days[active];
  const activeX = active === null ? 0 : xOf(active, days.length, box);
  const pointAt = (event: PointerEvent<SVGSVGElement>) =>
    setActive(nearestIndex(event.clientX - event.currentTarget.getBoundingClientRect().left, days.length, box));
  // The keyboard reads the days one by one: arrows step, Home and End jump to the ends.
  const step = (event: KeyboardEvent<SVGSVGElement>) => {
    const last = days.length - 1;
    const next = { ArrowLeft: (active ?? last + 1) - 1, ArrowRight: (active ?? -1) + 1, Home: 0, End: last }[event.key];
    if (next === undefined || last < 0) return;
    event.preventDefault();
    setActive(Math.min(last, Math.max(0, next)));
  };
  const summary = `${total(days, 'opened')} tickets opened and ${total(days, 'resolved')} resolved over the last ${days.length} days. Arrow keys read each day.`;

  return (
    <Box ref={ref} pos="relative" data-testid="dashboard-chart">
      <svg
        className={classes.plot}
        width="100%"
        height={HEIGHT}
        role="img"
        aria-label={summary}
        tabIndex={0}
        onPointerDown={pointAt}
        onPointerMove={pointAt}
        onPointerLeave={() => setActive(null)}
        onKeyDown={step}
        onBlur={() => setActive(null)}
      >
        {width > 0 ? (
          <>
            {ticks.map((tick) => (
              <g key={tick}>
                <line x1={box.left} x2={box.left + box.width} y1={yOf(tick, top, box)} y2={yOf(tick, top, box)} stroke="var(--mantine-color-default-border)" strokeDasharray={tick ? '4 4' : undefined} />
                <text x={box.left - 6} y={yOf(tick, top, box)} dy="0.32em" textAnchor="end" fontSize={12} fill="var(--mantine-color-dimmed)">
                  {tick}
                </text>
              </g>
            ))}
            {labelled.map((i) => (
              <text key={i} data-axis-label x={xOf(i, days.length, box)} y={HEIGHT - 6} textAnchor="middle" fontSize={12} fill="var(--mantine-color-dimmed)">
                {days[i] ? formatShortDay(days[i].day) : null}
              </text>
            ))}
            {SERIES.map(({ key, color }) => {
              const { line, area } = seriesPaths(days.map((day) => day[key]), top, box);
              return (
                <g key={key}>
                  <path d={area} fill={color} fillOpacity={0.15} />
                  <path d={line} data-series={key} fill="none" stroke={color} strokeWidth={2} strokeLinejoin="round" />
                </g>
              );
            })}
            {activeDay ? (
              <g>
                <line x1={activeX} x2={activeX} y1={box.top} y2={box.top + box.height} stroke="var(--mantine-color-dimmed)" />
                {SERIES.map(({ key, color }) => (
                  <circle key={key} cx={activeX} cy={yOf(activeDay[key], top, box)} r={4} fill={color} />
                ))}
              </g>
            ) : null}
          </>
        ) : null}
      </svg>
      {activeDay ? (
        <Paper
          withBorder
          shadow="sm"
          p={6}
          pos="absolute"
          top={MARGIN.top}
          left={Math.min(activeX + 8, Math.max(width - 130, 0))}
          style={{ pointerEvents: 'none' }}
          data-testid="dashboard-chart-tooltip"
          role="status"
        >
          <Text size="xs" fw={700}>
            {formatDate(activeDay.day)}
          </Text>
          {SERIES.map(({ key, label, color }) => (
            <Group key={key} gap={6} wrap="nowrap">
              <ColorSwatch color={color} size={10} withShadow={false} />
              <Text size="xs">
                {label}: {activeDay[key]}
              </Text>
            </Group>
          ))}
        </Paper>
      ) : null}
      <Group gap="md" justify="center" mt={4}>
        {SERIES.map(({ key, label, color }) => (
          <Group key={key} gap={6}>
            <ColorSwatch color={color} size={12} withShadow={false} />
            <Text size="sm">{label}</Text>
          </Group>
        ))}
      </Group>
    </Box>
  );
}
