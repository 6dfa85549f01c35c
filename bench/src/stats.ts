/** The p-th percentile (0–100) of ascending samples: the nearest-rank value, 0 when there are none. */
export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Rounded to tenths, as the reports show figures. */
export const roundTenth = (n: number): number => Math.round(n * 10) / 10;
