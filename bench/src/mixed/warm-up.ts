import { send } from './arrivals';
import type { MixedFixture } from './fixture';

/** Requests in flight during the warm-up: enough to keep both cores busy, few enough not to queue. */
const CONCURRENCY = 16;
const PROGRESS_EVERY = 2_000;

export interface WarmUp {
  users: number;
  seconds: number;
}

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
