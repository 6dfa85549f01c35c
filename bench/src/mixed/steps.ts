import type { CpuSampler } from '../cpu';
import { percentile, roundTenth } from '../stats';
import { runArrivals, type Outcome } from './arrivals';
import { kindChooser, picker, seededRandom, type RequestKind } from './mix';
import type { MixedFixture } from './fixture';

/**
 * Steps the arrival rate up and judges each step by the GitLab Performance Tool's rule: at least 80 % of
 * the target rate served, more than 99 % of the requests successful, and the 90th percentile of the time
 * to first byte under 200 ms. The stepping stops at the first step that fails it.
 */
export const GPT_RULE = { servedShare: 0.8, success: 0.99, p90TtfbMs: 200 };
const MAX_IN_FLIGHT = 2_000;
const TIMEOUT_MS = 10_000;

export interface KindFigures {
  requests: number;
  errors: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  /** Statuses other than the expected one (0: no answer), with their counts. */
  unexpected?: Record<string, number>;
}

export interface StepResult {
  targetRate: number;
  seconds: number;
  scheduled: number;
  /** Answers received while the step ran, per second. */
  servedRate: number;
  successPercent: number;
  p90TtfbMs: number;
  /** p99 of how late the generator started requests (its own lag on shared cores, not the server's). */
  startLagP99Ms: number;
  passed: boolean;
  /** Which parts of the rule failed. */
  failed: string[];
  kinds: Record<string, KindFigures>;
  /** CPU milliseconds per request of each process over the step. */
  cpuMsPerRequest: Record<string, number>;
}

const ms = (n: number): number => roundTenth(n);

function figures(outcomes: Outcome[]): KindFigures {
  const ttfb = outcomes
    .filter((o) => Number.isFinite(o.ttfbMs))
    .map((o) => o.ttfbMs)
    .sort((a, b) => a - b);
  const unexpected: Record<string, number> = {};
  for (const o of outcomes)
    if (!o.ok) unexpected[o.error ?? String(o.status)] = (unexpected[o.error ?? String(o.status)] ?? 0) + 1;
  return {
    requests: outcomes.length,
    errors: outcomes.filter((o) => !o.ok).length,
    p50Ms: ms(percentile(ttfb, 50)),
    p90Ms: ms(percentile(ttfb, 90)),
    p99Ms: ms(percentile(ttfb, 99)),
    ...(Object.keys(unexpected).length > 0 ? { unexpected } : {}),
  };
}

export async function runStep(options: {
  gatewayUrl: string;
  fixture: MixedFixture;
  kinds: RequestKind[];
  rate: number;
  seconds: number;
  seed: number;
  cpu: CpuSampler;
  isStopped: () => boolean;
}): Promise<StepResult> {
  const random = seededRandom(options.seed);
  const choose = kindChooser(options.kinds);
  const pick = picker(options.fixture, random);
  const cpuBefore = options.cpu.snapshot();
  const { outcomes, scheduled } = await runArrivals({
    origin: new URL(options.gatewayUrl),
    rate: options.rate,
    seconds: options.seconds,
    next: (serial) => {
      const kind = choose(random());
      return { kind, request: options.kinds[kind]!.plan(pick(options.seed * 10_000_000 + serial)) };
    },
    maxInFlight: MAX_IN_FLIGHT,
    timeoutMs: TIMEOUT_MS,
    isStopped: options.isStopped,
  });
  const cpuMsPerRequest = options.cpu.perRequest(cpuBefore, options.cpu.snapshot(), outcomes.length);
  const windowMs = options.seconds * 1_000;
  const servedRate =
    outcomes.filter((o) => o.status !== 0 && o.doneAtMs <= windowMs).length / options.seconds;
  const successShare = scheduled === 0 ? 0 : outcomes.filter((o) => o.ok).length / scheduled;
  const all = figures(outcomes);
  const lags = outcomes.map((o) => o.lateMs).sort((a, b) => a - b);
  const failed: string[] = [];
  if (servedRate < GPT_RULE.servedShare * options.rate)
    failed.push(`served ${ms(servedRate)}/s < 80 % of ${options.rate}/s`);
  if (!(successShare > GPT_RULE.success)) failed.push(`success ${(successShare * 100).toFixed(2)} % ≤ 99 %`);
  if (!(all.p90Ms < GPT_RULE.p90TtfbMs)) failed.push(`p90 TTFB ${all.p90Ms} ms ≥ 200 ms`);
  const kinds: Record<string, KindFigures> = { all };
  for (const [i, kind] of options.kinds.entries())
    kinds[kind.name] = figures(outcomes.filter((o) => o.kind === i));
  return {
    targetRate: options.rate,
    seconds: options.seconds,
    scheduled,
    servedRate: ms(servedRate),
    successPercent: Math.round(successShare * 100_000) / 1_000,
    p90TtfbMs: all.p90Ms,
    startLagP99Ms: ms(percentile(lags, 99)),
    passed: failed.length === 0,
    failed,
    kinds,
    cpuMsPerRequest,
  };
}
