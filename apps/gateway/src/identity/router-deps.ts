import type { Tier } from '@gl/contracts';
import type { IdentityDeps } from './identity.deps';
import type { UsersService } from './users.service';

/**
 * What the identity routers share: the identity services' dependencies plus the users service (which
 * authentication-aware routes need) and the tier. Its own module so that routers and their assembly in
 * identity.routers.ts do not import each other.
 */
export interface IdentityRouterDeps extends IdentityDeps {
  users: UsersService;
  tier: Tier;
}
