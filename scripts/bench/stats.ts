/** The p-th percentile (0–100) of `values`, by the nearest-rank method. */
export const percentile = (values: number[], p: number) => {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
};

export const median = (values: number[]) => percentile(values, 50);

/** Times `work` `count` times one after another, in milliseconds. */
export const timeEach = async (count: number, work: (i: number) => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await work(i);
    times.push(performance.now() - start);
  }
  return times;
};

export interface BenchRow {
  figure: string;
  measured: string;
  budget: string;
  pass: boolean;
  value: number;
  detail?: string;
}
