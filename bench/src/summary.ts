import { met, type SummaryRow } from './scenario';

const figure = (value: number, unit: string): string => {
  if (!Number.isFinite(value)) return '-';
  const digits = unit === '×' || Math.abs(value) < 10 ? 2 : Math.abs(value) < 1_000 ? 1 : 0;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })} ${unit}`;
};

/** The closing table of a run: one line per figure, its target, whether it is met, and where we started. */
export function formatSummary(rows: SummaryRow[]): string {
  const header = ['path', 'measure', 'measured', 'target', 'met', 'when filed'];
  const cells = rows.map((row) => [
    row.path,
    row.measure,
    figure(row.value, row.unit),
    `${row.goal === 'min' ? '≥' : '<'} ${figure(row.target, row.unit)}`,
    met(row) ? 'yes' : 'NO',
    row.before ?? '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]?.length ?? 0)));
  const line = (c: string[]): string =>
    c
      .map((cell, i) => (i === 2 || i === 3 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join(' | ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n');
}

/** The same table in Markdown, for the results kept in the repository. */
export function summaryMarkdown(rows: SummaryRow[]): string {
  const lines = [
    '| path | measure | measured | target | met | when filed |',
    '|---|---|---:|---:|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.path} | ${row.measure} | ${figure(row.value, row.unit)} | ` +
        `${row.goal === 'min' ? '≥' : '<'} ${figure(row.target, row.unit)} | ${met(row) ? 'yes' : '**no**'} | ` +
        `${row.before ?? ''} |`,
    ),
  ];
  return lines.join('\n');
}
