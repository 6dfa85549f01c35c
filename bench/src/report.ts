import type { Measurement } from './load';

export interface TargetResult {
  key: 'a' | 'b' | 'c';
  label: string;
  url: string;
  /** Status and start of the body of one request made before the load, so the table says what was measured. */
  probe: string;
  measurement: Measurement;
}

const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const ms = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '-');

function statusSummary(m: Measurement): string {
  const codes = Object.entries(m.statusCodes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, count]) => `${code}×${int(count)}`);
  if (m.errors > 0) codes.push(`errors×${int(m.errors)}`);
  if (m.timeouts > 0) codes.push(`timeouts×${int(m.timeouts)}`);
  return codes.join(' ') || 'none';
}

export function formatTable(results: TargetResult[]): string {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'status codes'];
  const rows = results.map((r) => [
    `(${r.key}) ${r.label}`,
    int(r.measurement.requestsPerSecond),
    ms(r.measurement.p50),
    ms(r.measurement.p99),
    int(r.measurement.non2xx),
    statusSummary(r.measurement),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) =>
        i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0),
      )
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.map(line)].join('\n');
}

export interface Ratio {
  name: string;
  meaning: string;
  throughput: number;
  p50: number;
  p99: number;
  /** Extra p50 milliseconds of the numerator over the denominator. */
  addedP50Ms: number;
}

export function ratio(name: string, meaning: string, num: Measurement, den: Measurement): Ratio {
  return {
    name,
    meaning,
    throughput: num.requestsPerSecond / den.requestsPerSecond,
    p50: num.p50 / den.p50,
    p99: num.p99 / den.p99,
    addedP50Ms: num.p50 - den.p50,
  };
}

export function formatRatio(r: Ratio): string {
  const x = (n: number): string => `×${n.toFixed(2)}`;
  const sign = r.addedP50Ms >= 0 ? '+' : '−';
  return (
    `${r.name} (${r.meaning}): req/s ${x(r.throughput)}, p50 ${x(r.p50)} ` +
    `(${sign}${Math.abs(r.addedP50Ms).toFixed(2)} ms), p99 ${x(r.p99)}`
  );
}
