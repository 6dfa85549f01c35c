import type { Router } from 'express';
import type { Tier } from '@gl/contracts';
import type { IdentityDeps } from './identity.deps';
import type { UsersService } from './users.service';

export interface IdentityRouterDeps extends IdentityDeps {
  users: UsersService;
  tier: Tier;
}

/** GitLab's identity endpoints served by the gateway itself: users, tokens, groups, projects, members, stars. */
export function createIdentityRouters(_deps: IdentityRouterDeps): Router[] {
  return [];
}
