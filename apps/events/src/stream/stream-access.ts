import type { InternalContext, Principal } from '@gl/contracts';
import { both, type ActivityCheck } from '../activity-criteria';
import type { ProjectionVersion } from '@gl/service-kit';
import type { IdentityAccessCache } from '../access.cache';
import type { ActivityDoc } from '../events.models';
import { activityVisibility, authorizedProjects } from '../events.visibility';

/** Longest a built check is reused while nothing here says the projection changed (other replicas' writes). */
const CHECK_TTL_MS = 2_000;

/**
 * Which events a stream's client may read, decided again as the identity projection changes: the rule of
 * the /events lists (`activityVisibility`: the event's project or group readable to the caller, then its
 * target by the shared read rule), rebuilt whenever this process's projection version moves (its consumer
 * applied a membership or visibility change, or a notice from another replica's did) and at least every
 * CHECK_TTL_MS. So a member removed from a project stops receiving its events with the next event sent.
 */
export function liveVisibility(
  cache: IdentityAccessCache,
  version: ProjectionVersion,
  ctx: Pick<InternalContext, 'principal' | 'identityRevision'>,
  filter: ActivityCheck,
): () => Promise<(activity: ActivityDoc) => boolean> {
  const principal: Principal | null = ctx.principal;
  return rebuiltOnChange(version, async () =>
    both(await activityVisibility(cache.at(ctx), principal), filter),
  );
}

/**
 * `/events/stream?scope=all`: the events of the projects the caller is a member of (directly or through a
 * group), each target read by the shared rule — the list's `authorizedProjects` — over the all-projects
 * stream, rebuilt like liveVisibility (a new membership adds its project's events from the next one on).
 */
export function liveAuthorizedProjects(
  cache: IdentityAccessCache,
  version: ProjectionVersion,
  ctx: Pick<InternalContext, 'principal' | 'identityRevision'>,
  principal: Principal,
  filter: ActivityCheck,
): () => Promise<(activity: ActivityDoc) => boolean> {
  return rebuiltOnChange(version, async () => {
    const authorized = await authorizedProjects(cache.at(ctx), principal);
    const member: ActivityCheck = (a) => a.projectId !== null && authorized.ids.has(a.projectId);
    return both(both(member, authorized.targets), filter);
  });
}

/** A check built again when the projection version moves, and at least every CHECK_TTL_MS. */
function rebuiltOnChange(
  version: ProjectionVersion,
  build: () => Promise<ActivityCheck>,
): () => Promise<(activity: ActivityDoc) => boolean> {
  let built: { version: number; at: number; check: (activity: ActivityDoc) => boolean } | null = null;
  return async () => {
    if (built && built.version === version.value && Date.now() - built.at < CHECK_TTL_MS) return built.check;
    const at = Date.now();
    const seenVersion = version.value;
    const check = (await build()) ?? (() => true);
    built = { version: seenVersion, at, check };
    return check;
  };
}
