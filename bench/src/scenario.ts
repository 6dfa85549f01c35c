import type { RunningStack } from '@gl/launcher';
import type { CpuSampler } from './cpu';

/** What every scenario gets: one stack (gateway, seven services, worker) on one fresh infrastructure. */
export interface ScenarioContext {
  stack: RunningStack;
  mongoUrl: string;
  natsUrl: string;
  /** Database names are `<prefix><service>`. */
  databasePrefix: string;
  /** The secret the gateway signs contexts with, so a scenario can call a service directly. */
  contextSecret: string;
  durationSeconds: number;
  connections: number;
  warmupSeconds: number;
  log: (line: string) => void;
  /** CPU time of every process of the stack and infrastructure, for "where the time goes" figures. */
  cpu: CpuSampler;
  /** Registers a stop step run in reverse order at the end (normal end, error or signal). */
  onTeardown: (name: string, stop: () => Promise<void>) => void;
}

/** One line of the closing table: a figure of a scenario next to the target it is held against. */
export interface SummaryRow {
  path: string;
  measure: string;
  value: number;
  unit: string;
  /** `min`: at least `target`; `max`: below `target`. */
  goal: 'min' | 'max';
  target: number;
  /** The figure measured when the throughput issue was filed, for comparison. */
  before?: string;
}

export interface ScenarioOutcome<R> {
  result: R;
  rows: SummaryRow[];
  /** Markdown the scenario adds under the table of its results file (figures the table has no room for). */
  details?: string;
}

export interface Scenario<R = unknown> {
  name: string;
  /** Part of a plain `npm run bench` (every scenario with targets); the rest only by `--scenario`. */
  inDefaultRun: boolean;
  run: (context: ScenarioContext) => Promise<ScenarioOutcome<R>>;
}

export const met = (row: SummaryRow): boolean =>
  row.goal === 'min' ? row.value >= row.target : row.value < row.target;
