import type { DbOps } from './db-ops';
import type { MixedFixture } from './fixture';
import type { RequestKind } from './mix';
import { perKindTable, type PerKindResult } from './per-kind';
import type { StepResult } from './steps';
import type { WarmUp } from './warm-up';

/** What the mixed scenario records (bench/results/mixed-latest.json) and how it is shown (mixed-latest.md). */
export interface MixedBenchResult {
  scale: number;
  fixture: { counts: MixedFixture['counts']; seconds: Record<string, number> };
  warmUp: WarmUp;
  mix: { name: string; weightPercent: number; write: boolean }[];
  rule: string;
  dbCommandsPerRequest: DbOps;
  /** Each kind alone (`--per-kind`), null when not asked for. */
  perKind: PerKindResult | null;
  steps: StepResult[];
  /** The highest target rate whose step passed the rule, null when none did. */
  highestPassingRate: number | null;
}

const cell = (n: number | undefined): string => (n === undefined || !Number.isFinite(n) ? '-' : String(n));

function stepsTable(steps: StepResult[]): string[] {
  return [
    '| target req/s | served req/s | success % | p90 TTFB ms | generator lag p99 ms | passed | failed on |',
    '|---:|---:|---:|---:|---:|---|---|',
    ...steps.map(
      (s) =>
        `| ${s.targetRate} | ${s.servedRate} | ${s.successPercent} | ${s.p90TtfbMs} | ${s.startLagP99Ms} | ` +
        `${s.passed ? 'yes' : '**no**'} | ${s.failed.join('; ')} |`,
    ),
  ];
}

function kindsTable(step: StepResult, dbOps: DbOps): string[] {
  return [
    `Per request kind at ${step.targetRate} req/s (time to first byte, ms; database commands per request ` +
      'measured alone, before the load):',
    '',
    '| kind | requests | errors | p50 | p90 | p99 | db commands | unexpected answers |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...Object.entries(step.kinds).map(
      ([name, k]) =>
        `| ${name} | ${k.requests} | ${k.errors} | ${cell(k.p50Ms)} | ${cell(k.p90Ms)} | ${cell(k.p99Ms)} | ` +
        `${cell(dbOps.perRequest?.[name])} | ${k.unexpected ? JSON.stringify(k.unexpected) : ''} |`,
    ),
  ];
}

function cpuTable(steps: StepResult[]): string[] {
  const processes = [...new Set(steps.flatMap((s) => Object.keys(s.cpuMsPerRequest)))];
  return [
    'CPU milliseconds per request, per process (from /proc/<pid>/stat over each step):',
    '',
    `| process | ${steps.map((s) => `${s.targetRate}/s`).join(' | ')} |`,
    `|---|${steps.map(() => '---:').join('|')}|`,
    ...processes.map((p) => `| ${p} | ${steps.map((s) => cell(s.cpuMsPerRequest[p])).join(' | ')} |`),
  ];
}

export function mixedMarkdown(result: MixedBenchResult): string {
  const { counts, seconds } = result.fixture;
  const passing = result.steps.filter((s) => s.passed).at(-1);
  const failing = result.steps.find((s) => !s.passed);
  const lines = [
    `## Mixed load (scale ${result.scale})`,
    '',
    `Fixture: ${counts.users} users with tokens, ${counts.projects} projects, ${counts.issues} issues, ` +
      `${counts.comments} comments, ${counts.events} activity events, ${counts.tags} registry tags; built in ` +
      `${seconds.total} s (${Object.entries(seconds)
        .filter(([k]) => k !== 'total')
        .map(([k, v]) => `${k} ${v} s`)
        .join(', ')}).`,
    '',
    `Warm-up: each of the ${result.warmUp.users} users sent three requests first (a project, a group list, ` +
      `a user's events; ${result.warmUp.seconds} s), as on a running system; the mix then draws its callers from all of them.` +
      (result.warmUp.mix
        ? ` Then the mix itself ran ${result.warmUp.mix.seconds} s at ${result.warmUp.mix.rate} req/s, not judged ` +
          `(served ${result.warmUp.mix.servedRate}/s, p90 ${result.warmUp.mix.p90TtfbMs} ms), so that each kind's ` +
          `code is compiled before the first step.`
        : ''),
    '',
    `Mix: ${result.mix.map((k) => `${k.name} ${k.weightPercent} %`).join(', ')}.`,
    '',
    `Rule: ${result.rule}. Highest passing rate: ` +
      `**${result.highestPassingRate === null ? 'none' : `${result.highestPassingRate} req/s`}**.`,
    '',
    ...stepsTable(result.steps),
    '',
  ];
  for (const step of [passing, failing])
    if (step) lines.push(...kindsTable(step, result.dbCommandsPerRequest), '');
  if (result.dbCommandsPerRequest.perRequest === null) {
    lines.push('Database commands per request: not measured (the server reports no command counts).', '');
  }
  lines.push(...cpuTable(result.steps));
  if (result.perKind) lines.push('', ...perKindTable(result.perKind));
  return lines.join('\n');
}

export const mixOf = (kinds: RequestKind[]): MixedBenchResult['mix'] => {
  const total = kinds.reduce((sum, k) => sum + k.weight, 0);
  return kinds.map((k) => ({
    name: k.name,
    weightPercent: Math.round((k.weight / total) * 1_000) / 10,
    write: k.write,
  }));
};
