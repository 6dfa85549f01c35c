import type { InternalContext, Principal } from '@gl/contracts';
import { both, type ActivityCheck } from '../activity-criteria';
import type { IdentityAccessCache, ProjectionVersion } from '../access.cache';
import type { ActivityDoc } from '../events.models';
import { activityVisibility } from '../events.visibility';

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
  let built: { version: number; at: number; check: (activity: ActivityDoc) => boolean } | null = null;
  return async () => {
    if (built && built.version === version.value && Date.now() - built.at < CHECK_TTL_MS) return built.check;
    const at = Date.now();
    const seenVersion = version.value;
    const visibility = await activityVisibility(cache.at(ctx), principal);
    const check = both(visibility, filter) ?? (() => true);
    built = { version: seenVersion, at, check };
    return check;
  };
}
