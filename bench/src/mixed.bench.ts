import { isLoadStopped } from './load';
import { closeArrivals } from './mixed/arrivals';
import { measureDbOps } from './mixed/db-ops';
import { buildFixture } from './mixed/fixture';
import { MIX } from './mixed/mix';
import { runPerKind, type PerKindResult } from './mixed/per-kind';
import { mixedMarkdown, mixOf, type MixedBenchResult } from './mixed/report';
import { GPT_RULE, runStep, type StepResult } from './mixed/steps';
import { warmUpMix, warmUpUsers } from './mixed/warm-up';
import type { Scenario } from './scenario';

/**
 * `npm run bench -- --scenario mixed [--scale F] [--rates 50,100,200] [--step-seconds N] [--per-kind R]`:
 * the capacity question: how many requests a second of a GitLab-like mix the stack serves at the size users
 * reach. A fixture of 10,000 users, 100 projects, 100,000 issues, 300,000 comments, 1,000,000 activity
 * events and 100,000 tags (× F, see mixed/fixture.ts), then the mix (mixed/mix.ts) at fixed arrival rates,
 * stepped up until a step fails the GitLab Performance Tool's rule (mixed/steps.ts). With `--per-kind R`,
 * first each kind of the mix alone at R req/s (mixed/per-kind.ts), for what each kind costs. Not part of a
 * plain run.
 */
export const DEFAULT_RATES = [50, 100, 200, 300, 400, 500, 600, 800];
export const DEFAULT_STEP_SECONDS = 30;
/** A GitLab 10k reference architecture is sized for 200 API requests a second (the GPT's target there). */
const TARGET_RATE = 200;
const FIXTURE_BUDGET_SECONDS = 600;

export interface MixedOptions {
  scale: number;
  rates: number[];
  stepSeconds: number;
  /** Each kind alone at this rate before the mixed steps; null: not measured. */
  perKindRate: number | null;
  /** Words naming the kinds to run (`--kinds`), for profiling a few; empty: the whole mix. */
  kinds: string[];
}

export function mixedScenario(options: MixedOptions): Scenario<MixedBenchResult> {
  return {
    name: 'mixed',
    inDefaultRun: false,
    async run(context) {
      const { log } = context;
      const mix = options.kinds.length
        ? MIX.filter((kind) => options.kinds.some((word) => kind.name.includes(word)))
        : MIX;
      if (mix.length === 0) throw new Error(`--kinds ${options.kinds.join(',')} names no kind of the mix`);
      const fixture = await buildFixture({
        gatewayUrl: context.stack.gatewayUrl,
        rootToken: context.stack.rootToken,
        mongoUrl: context.mongoUrl,
        databasePrefix: context.databasePrefix,
        scale: options.scale,
        connections: context.connections,
        log,
      });
      const warmUp = await warmUpUsers({ gatewayUrl: context.stack.gatewayUrl, fixture, log });
      const dbOps = await measureDbOps({
        mongoUrl: context.mongoUrl,
        gatewayUrl: context.stack.gatewayUrl,
        fixture,
        kinds: mix,
        log,
      });
      let perKind: PerKindResult | null = null;
      const steps: StepResult[] = [];
      try {
        if (options.rates.length > 0) {
          warmUp.mix = await warmUpMix({
            gatewayUrl: context.stack.gatewayUrl,
            fixture,
            kinds: mix,
            firstRate: options.rates[0]!,
            cpu: context.cpu,
            isStopped: isLoadStopped,
            log,
          });
        }
        if (options.perKindRate !== null) {
          perKind = await runPerKind({
            gatewayUrl: context.stack.gatewayUrl,
            fixture,
            kinds: mix,
            rate: options.perKindRate,
            seconds: options.stepSeconds,
            cpu: context.cpu,
            isStopped: isLoadStopped,
            log,
          });
        }
        for (const [i, rate] of options.rates.entries()) {
          log(`mixed: step ${i + 1}/${options.rates.length}: ${rate} req/s for ${options.stepSeconds} s`);
          const step = await runStep({
            gatewayUrl: context.stack.gatewayUrl,
            fixture,
            kinds: mix,
            rate,
            seconds: options.stepSeconds,
            seed: i + 1,
            cpu: context.cpu,
            isStopped: isLoadStopped,
          });
          steps.push(step);
          log(
            `mixed: ${rate} req/s: served ${step.servedRate}/s, success ${step.successPercent} %, ` +
              `p90 TTFB ${step.p90TtfbMs} ms → ${step.passed ? 'passed' : `failed (${step.failed.join('; ')})`}`,
          );
          if (!step.passed || isLoadStopped()) break;
        }
      } finally {
        closeArrivals();
      }
      const highestPassingRate = steps.filter((s) => s.passed).at(-1)?.targetRate ?? null;
      const result: MixedBenchResult = {
        scale: options.scale,
        fixture: { counts: fixture.counts, seconds: fixture.seconds },
        warmUp,
        mix: mixOf(mix),
        rule:
          `≥ ${GPT_RULE.servedShare * 100} % of the target rate served, > ${GPT_RULE.success * 100} % ` +
          `success, p90 time to first byte < ${GPT_RULE.p90TtfbMs} ms`,
        dbCommandsPerRequest: dbOps,
        perKind,
        steps,
        highestPassingRate,
      };
      return {
        result,
        details: mixedMarkdown(result),
        rows: [
          {
            path: `GitLab-like mix, open model (scale ${options.scale})`,
            measure: 'highest passing rate',
            value: highestPassingRate ?? 0,
            unit: 'req/s',
            goal: 'min',
            target: TARGET_RATE,
          },
          {
            path: `mixed fixture build (scale ${options.scale})`,
            measure: 'wall time',
            value: fixture.seconds.total ?? Number.NaN,
            unit: 's',
            goal: 'max',
            target: FIXTURE_BUDGET_SECONDS,
          },
        ],
      };
    },
  };
}
