/** Where the plot sits inside the drawing, in pixels. */
export interface PlotBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** 0 and equal round steps (1, 2 or 5 times a power of ten, at least 1) up to at least `max`. */
export const countTicks = (max: number, wanted = 4) => {
  const rough = Math.max(max, 1) / wanted;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= rough) ?? power * 10);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return Array.from({ length: top / step + 1 }, (_, i) => i * step);
};

/** x of point `index` of `count` points, spread evenly across the plot. */
export const xOf = (index: number, count: number, box: PlotBox) =>
  box.left + (count > 1 ? (index / (count - 1)) * box.width : box.width / 2);

/** y of `value` on an axis from 0 (bottom) to `top`. */
export const yOf = (value: number, top: number, box: PlotBox) => box.top + box.height - (value / top) * box.height;

const point = (x: number, y: number) => `${x.toFixed(1)},${y.toFixed(1)}`;

/** The series as a line (`line`) and as the area between the line and zero (`area`). */
export const seriesPaths = (values: number[], top: number, box: PlotBox) => {
  const points = values.map((value, i) => point(xOf(i, values.length, box), yOf(value, top, box)));
  if (points.length === 0) return { line: '', area: '' };
  const line = `M${points.join('L')}`;
  const bottom = box.top + box.height;
  const area = `${line}L${point(xOf(values.length - 1, values.length, box), bottom)}L${point(xOf(0, values.length, box), bottom)}Z`;
  return { line, area };
};

/**
 * Which of `count` points get an x-axis label so that labels stay at least `minGap` pixels apart:
 * every n-th point counted back from the last, so the latest day is always labelled.
 */
export const labelledIndexes = (count: number, plotWidth: number, minGap: number) => {
  if (count === 0) return [];
  const every = Math.max(1, Math.ceil((minGap * (count - 1)) / Math.max(plotWidth, 1)));
  const indexes: number[] = [];
  for (let i = count - 1; i >= 0; i -= every) indexes.unshift(i);
  return indexes;
};

/** The point nearest to pixel `x`. */
export const nearestIndex = (x: number, count: number, box: PlotBox) => {
  if (count <= 1) return 0;
  const fraction = (x - box.left) / box.width;
  return Math.min(count - 1, Math.max(0, Math.round(fraction * (count - 1))));
};
