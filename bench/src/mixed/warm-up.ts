import type { CpuSampler } from '../cpu';
import { send } from './arrivals';
import type { MixedFixture } from './fixture';
import type { RequestKind } from './mix';
import { runStep } from './steps';

/** Requests in flight during the warm-up: enough to keep both cores busy, few enough not to queue. */
const CONCURRENCY = 16;
const PROGRESS_EVERY = 2_000;

export interface WarmUp {
  users: number;
  seconds: number;
  /** The mix run before the measured steps, not judged (`warmUpMix`). */
  mix?: { rate: number; seconds: number; servedRate: number; p90TtfbMs: number };
}

/** The mix's own warm-up: this long, at this share of the first step's rate. */
export const MIX_WARM_UP_SECONDS = 20;
const MIX_WARM_UP_SHARE = 0.6;

/**
 * Every user of the fixture sends a few requests before the load, as each would have on a system that has
 * been running: the mix draws its caller from 10,000 users, so without this most requests of a short run
 * are some user's first, which costs the gateway six identity lookups and two bookkeeping writes that a
 * running system pays once per user (IDENTITY_CACHE_SHARED_TTL_MS). GitLab's performance tool sends all
 * its requests with one token, so it never pays them at all.
 * - `GET /projects/:id` reads what every later request of the user needs: token, user, project, memberships.
 * - A group list (discussions) and a user's events (events): each service that authorizes from its
 *   projection learns, at a user's first request, which identity revision it has applied for them (one
 *   read of `projection_revisions`, remembered for up to 100,000 users: ProjectionRevisions); measured
 *   at 1,000 users, two of three board columns of a cold run paid that read.
 */
export async function warmUpUsers(options: {
  gatewayUrl: string;
  fixture: MixedFixture;
  log: (line: string) => void;
}): Promise<WarmUp> {
  const { fixture, log } = options;
  const origin = new URL(options.gatewayUrl);
  const tokens = fixture.users.tokens;
  const started = performance.now();
  let next = 0;
  let failed = 0;
  async function worker(): Promise<void> {
    while (next < tokens.length) {
      const i = next++;
      const project = fixture.projects[i % fixture.projects.length]!;
      const author = fixture.eventAuthors[i % fixture.eventAuthors.length]!;
      for (const path of [
        `/api/v4/projects/${project.id}`,
        `/api/v4/groups/${fixture.groupId}/issues?per_page=1&state=opened`,
        `/api/v4/users/${author}/events?per_page=1`,
      ]) {
        const headers = { 'PRIVATE-TOKEN': tokens[i]! };
        const answer = await send(origin, { method: 'GET', path, headers, expect: 200 }, 10_000);
        if (answer.status !== 200) failed++;
      }
      if ((i + 1) % PROGRESS_EVERY === 0) log(`mixed: warm-up: ${i + 1}/${tokens.length} users`);
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (failed > 0) log(`mixed: warm-up: ${failed} of ${tokens.length * 3} first requests did not answer 200`);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  log(`mixed: warm-up: ${tokens.length} users sent their first requests in ${seconds} s`);
  return { users: tokens.length, seconds };
}

/**
 * The mix itself for MIX_WARM_UP_SECONDS before the measured steps, unjudged. The users' warm-up sends three
 * kinds of request; the mix sends seventeen, and in the first seconds each kind's code is compiled by V8's
 * optimizing compiler in every process it crosses. Measured without this, the first step cost about 1 ms
 * more CPU per request than the next ones in every process, gateway included (6.88 ms at 250 req/s, 5.94
 * at 300), and a first step near the machine's limit could fail on that alone. A running system has
 * compiled its code long ago.
 */
export async function warmUpMix(options: {
  gatewayUrl: string;
  fixture: MixedFixture;
  kinds: RequestKind[];
  firstRate: number;
  cpu: CpuSampler;
  isStopped: () => boolean;
  log: (line: string) => void;
}): Promise<NonNullable<WarmUp['mix']>> {
  const rate = Math.max(1, Math.round(options.firstRate * MIX_WARM_UP_SHARE));
  options.log(`mixed: warm-up: the mix at ${rate} req/s for ${MIX_WARM_UP_SECONDS} s (not judged)`);
  const step = await runStep({
    gatewayUrl: options.gatewayUrl,
    fixture: options.fixture,
    kinds: options.kinds,
    rate,
    seconds: MIX_WARM_UP_SECONDS,
    seed: 0,
    cpu: options.cpu,
    isStopped: options.isStopped,
  });
  return { rate, seconds: MIX_WARM_UP_SECONDS, servedRate: step.servedRate, p90TtfbMs: step.p90TtfbMs };
}
