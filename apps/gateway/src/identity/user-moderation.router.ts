import { Router } from 'express';
import { IDENTITY_API } from '@gl/contracts';
import { eventActor, NotFoundError, sendJson } from '@gl/service-kit';
import { requireAdmin } from './access';
import { callerOf, identityRoutes, numericParam, originOfRequest } from './http';
import type { IdentityRouterDeps } from './router-deps';
import type { ModerationAction } from './user-states';

/**
 * POST /users/:id/{block,unblock,ban,unban,deactivate,activate} (lib/api/users.rb): each starts with
 * `authenticated_as_admin!`, then finds the user (404 `User Not Found`), then the state rules decide.
 */
export function createUserModerationRouter(deps: IdentityRouterDeps): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { users } = deps;
  router.param('id', numericParam);

  const endpoints = [
    [IDENTITY_API.blockUser, 'block'],
    [IDENTITY_API.unblockUser, 'unblock'],
    [IDENTITY_API.banUser, 'ban'],
    [IDENTITY_API.unbanUser, 'unban'],
    [IDENTITY_API.deactivateUser, 'deactivate'],
    [IDENTITY_API.activateUser, 'activate'],
  ] as const satisfies readonly (readonly [unknown, ModerationAction])[];

  for (const [contract, action] of endpoints) {
    serve(contract, async ({ req, res, params }) => {
      const principal = callerOf(req);
      requireAdmin(principal);
      const { id } = params();
      const user = await users.findById(id);
      if (!user) throw new NotFoundError('User');
      const outcome = await users.moderate(
        user,
        action,
        principal.id,
        originOfRequest(req),
        eventActor(principal),
      );
      sendJson(res, 201, outcome.body);
    });
  }
  return router;
}
