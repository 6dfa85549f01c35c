import type { Router } from 'express';
import { createGroupsRouter } from './groups.router';
import { createGroupsFinder } from './groups.finder';
import { createGroupsService } from './groups.service';
import { createMembersRouter } from './members.router';
import { createMembersService } from './members.service';
import { createProjectsRouter } from './projects.router';
import { createProjectsService } from './projects.service';
import { createStarsRouter } from './stars.router';
import { createStarsService } from './stars.service';
import { createUsersRouter } from './users.router';
import { createUserModerationRouter } from './user-moderation.router';
import { createUserAdminRouter } from './user-admin.router';
import { createUserAdminService } from './user-admin.service';
import { createCredentialsRouter } from './credentials.router';
import { createNamespacesRouter } from './namespaces.router';
import type { IdentityRouterDeps } from './router-deps';

/**
 * GitLab's identity endpoints served by the gateway itself: users, tokens, groups, projects, members,
 * stars. Mounted under /api/v4 after the forwarding routes, so nothing here shadows a service's path.
 */
export function createIdentityRouters(deps: IdentityRouterDeps): Router[] {
  const projects = createProjectsService(deps);
  return [
    createUsersRouter(deps),
    createUserModerationRouter(deps),
    createCredentialsRouter(deps),
    createNamespacesRouter(deps),
    createUserAdminRouter({ ...deps, userAdmin: createUserAdminService(deps), projects }),
    createGroupsRouter({
      ...deps,
      groups: createGroupsService(deps),
      groupsFinder: createGroupsFinder(deps),
      projects,
    }),
    createProjectsRouter({ ...deps, projects }),
    createStarsRouter({ ...deps, stars: createStarsService(deps) }),
    createMembersRouter({ ...deps, members: createMembersService(deps) }),
  ];
}
