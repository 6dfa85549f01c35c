import { call } from '../http';
import type { World } from '../world';
import type { FuzzCase } from './cases';
import { runFuzzCase, type FuzzFinding, type Lane } from './run';

/**
 * Runs the cases in concurrent lanes. Nearly all of a case's time is the read-back's settling wait, not the
 * stack's work, so lanes overlap those waits. A lane runs whole operations, one after the other, in a world
 * of its own (run.ts, Lane): no lane's writes show in another's read-backs, and within a lane the cases run
 * in order as a serial run would. Operations go to whichever lane is free, the largest first, so that no
 * lane is left with a long operation at the end.
 */
export interface FuzzProgress {
  done: number;
  total: number;
  findings: number;
  /** The slowest answer so far, in ms, and its request. */
  slowest: { ms: number; request: string };
  startedAt: number;
}

export interface LaneOptions {
  /** Called for each finding as it is found (a long run shows them before it ends). */
  onFinding: (finding: FuzzFinding) => void;
  /** Called every `progressMs` while the run lasts. */
  onProgress: (progress: FuzzProgress) => void;
  progressMs: number;
  /** A new world for a lane whose world an operation broke. */
  renew: () => Promise<World>;
}

/**
 * What is wrong with a lane's world after an operation, or null: the owner's token must still sign in and
 * its group and project still be there. Every later case of the lane would otherwise meet 401s and 404s
 * and pass without testing what it was meant to.
 */
async function brokenWorld(lane: Lane): Promise<string | null> {
  const owner = lane.world.tokens.owner;
  const target = lane.world.targets[lane.visibility];
  for (const path of ['/user', `/groups/${target.group.id}`, `/projects/${target.project.id}`]) {
    const reply = await call('GET', path, { token: owner });
    if (reply.status !== 200) return `GET ${path} as the owner → ${reply.status} ${reply.text.slice(0, 120)}`;
  }
  return null;
}

/** The cases grouped by operation (in their order), the operations with the most cases first. */
export function byOperation(cases: readonly FuzzCase[]): FuzzCase[][] {
  const groups = new Map<string, FuzzCase[]>();
  for (const fuzz of cases) {
    const group = groups.get(fuzz.op.operationId) ?? [];
    group.push(fuzz);
    groups.set(fuzz.op.operationId, group);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

export async function runLanes(
  cases: readonly FuzzCase[],
  lanes: Lane[],
  options: LaneOptions,
): Promise<{ findings: FuzzFinding[]; progress: FuzzProgress }> {
  const queue = byOperation(cases);
  const findings: FuzzFinding[] = [];
  const progress: FuzzProgress = {
    done: 0,
    total: cases.length,
    findings: 0,
    slowest: { ms: 0, request: '' },
    startedAt: performance.now(),
  };
  const timer = setInterval(() => options.onProgress(progress), options.progressMs);
  try {
    await Promise.all(
      lanes.map(async (lane) => {
        for (let group = queue.shift(); group; group = queue.shift()) {
          for (const fuzz of group) {
            const result = await runFuzzCase(lane, fuzz);
            for (const finding of result.findings) options.onFinding(finding);
            findings.push(...result.findings);
            progress.done += 1;
            progress.findings = findings.length;
            if (result.ms !== null && result.ms > progress.slowest.ms) {
              progress.slowest = { ms: result.ms, request: result.request };
            }
          }
          const broken = await brokenWorld(lane);
          if (broken) {
            const finding = {
              request: `the cases of ${group[0]!.op.operationId}`,
              problem: `left ${broken}`,
            };
            options.onFinding(finding);
            findings.push(finding);
            lane.world = await options.renew();
            lane.settled = null;
          }
        }
      }),
    );
  } finally {
    clearInterval(timer);
  }
  return { findings, progress };
}
