import { existsSync, readFileSync } from 'node:fs';

/** One line of FerretDB's full-scan report (our patch 0003-full-scan-report): a query shape that read a whole table. */
export interface ScanLine {
  database: string;
  collection: string;
  /** The filter with every value replaced by its type, keys sorted: `{"projectId": int64}`. */
  filter: string;
  /** The sort as given: `{"iid": -1}`; `{}` without one. */
  sort: string;
  comment?: string;
  plan: string[];
}

/** A scan that is meant to be one, with the reason. `service` and `sort` default to any. */
export interface IntendedScan {
  /** The service owning the database (its name ends the database name: `e2e_events`). */
  service?: string;
  collection: string;
  filter: string;
  sort?: string;
  reason: string;
}

export function readScanReport(file: string): ScanLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ScanLine);
}

const isIntended = (line: ScanLine, intended: readonly IntendedScan[]): boolean =>
  intended.some(
    (i) =>
      (i.service === undefined || line.database.endsWith(i.service)) &&
      i.collection === line.collection &&
      i.filter === line.filter &&
      (i.sort === undefined || i.sort === line.sort),
  );

/** The scans in the report that no entry of `intended` explains. */
export function unexpectedScans(lines: ScanLine[], intended: readonly IntendedScan[]): ScanLine[] {
  return lines.filter((l) => !isIntended(l, intended));
}

export function formatScans(lines: ScanLine[]): string {
  return lines
    .map(
      (l) =>
        `  ${l.database}.${l.collection} filter ${l.filter} sort ${l.sort}` +
        (l.comment ? ` (comment: ${l.comment})` : '') +
        `\n    plan: ${l.plan.join(' | ')}`,
    )
    .join('\n');
}
