import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import {
  IDENTITY_API,
  addEmailBody,
  createPersonalAccessTokenBody,
  createUserBody,
  userIdParam,
  wantsKeyset,
} from '@gl/contracts';
import {
  atLeastOneOf,
  eventActor,
  ForbiddenError,
  NotFoundError,
  sendJson,
  setKeysetPaginationHeaders,
  setPaginationHeaders,
} from '@gl/service-kit';
import { requireAdmin } from './access';
import {
  callerOf,
  identityRoutes,
  numericParam,
  originOfRequest,
  pageOf,
  paramsOf,
  paramsWithRules,
} from './http';
import type { IdentityRouterDeps } from './router-deps';
import { userListSort, usersByKeyset } from './users.keyset';
import type { UserDoc } from './users.service';
import {
  emailEntity,
  personalAccessTokenEntity,
  userBasic,
  userDetailsWithAdminEntity,
  userEntity,
  userPublicEntity,
  userWithAdminEntity,
} from './users.entities';

/** GitLab 16+: a token created without an expiry date gets the maximum lifetime, 365 days. */
const DEFAULT_TOKEN_LIFETIME_DAYS = 365;

function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** /users, /user, /users/:id/personal_access_tokens, /users/:id/emails (lib/api/users.rb). */
export function createUsersRouter(deps: IdentityRouterDeps): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { users, externalUrl } = deps;
  router.param('id', numericParam);

  async function userOr404(id: number): Promise<UserDoc> {
    const user = await users.findById(id);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  serve(IDENTITY_API.getCurrentUser, async ({ req, res }) => {
    const principal = callerOf(req);
    const user = await userOr404(principal.id);
    sendJson(
      res,
      200,
      principal.isAdmin ? userWithAdminEntity(externalUrl, user) : userPublicEntity(externalUrl, user),
    );
  });

  serve(IDENTITY_API.listCurrentUserEmails, async ({ req, res }) => {
    const page = pageOf(req);
    const { total, emails } = await users.listEmails(callerOf(req).id, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(res, 200, emails.map(emailEntity));
  });

  serve(IDENTITY_API.createUser, async ({ req, res }) => {
    const params = paramsWithRules(req, createUserBody, [
      atLeastOneOf('password', 'reset_password', 'force_random_password'),
    ]);
    const principal = callerOf(req);
    requireAdmin(principal);
    const user = await users.create(
      {
        username: params.username,
        name: params.name,
        email: params.email,
        // reset_password / force_random_password: the account gets a password nobody knows.
        password: params.password ?? randomBytes(24).toString('base64url'),
        isAdmin: params.admin ?? params.is_admin ?? false,
        canCreateGroup: params.can_create_group,
        projectsLimit: params.projects_limit,
        bio: params.bio,
      },
      originOfRequest(req),
      eventActor(principal),
    );
    sendJson(res, 201, userWithAdminEntity(externalUrl, user));
  });

  serve(IDENTITY_API.listUsers, async ({ req, res, params }) => {
    const filters = params();
    // Anonymous callers may only look up one user by username, never list the instance.
    if (!req.principal && !filters.username)
      throw new ForbiddenError('Not authorized to access /api/v4/users');
    const page = pageOf(req);
    const admin = req.principal?.isAdmin ?? false;
    if (wantsKeyset(filters)) {
      // CursorBasedKeyset for User (lib/api/helpers/pagination_strategies.rb, users.keyset.ts).
      const { users: rows, nextCursor } = await usersByKeyset(deps.stores.users, filters, page.perPage);
      setKeysetPaginationHeaders(req, res, nextCursor);
      sendJson(
        res,
        200,
        rows.map((u) => (admin ? userWithAdminEntity(externalUrl, u) : userBasic(externalUrl, u))),
      );
      return;
    }
    const { total, users: rows } = await users.list(filters, page, userListSort(filters));
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      rows.map((u) => (admin ? userWithAdminEntity(externalUrl, u) : userBasic(externalUrl, u))),
    );
  });

  // Anonymous callers get the handler's 403 `Not authorized!`, not the 401 of a missing token.
  serve(
    IDENTITY_API.getUser,
    async ({ req, res }) => {
      const { id } = paramsOf(req, userIdParam);
      const principal = req.principal;
      if (!principal) throw new ForbiddenError('Not authorized!');
      const user = await userOr404(id);
      if (principal.isAdmin) {
        sendJson(res, 200, userDetailsWithAdminEntity(externalUrl, user, await users.highestRole(user._id)));
        return;
      }
      sendJson(res, 200, userEntity(externalUrl, user));
    },
    { anonymous: true },
  );

  // GitLab checks `authenticated_as_admin!` in a `before` block here, so non-admins get 403 before any
  // parameter is validated.
  serve(IDENTITY_API.createPersonalAccessToken, async ({ req, res }) => {
    requireAdmin(callerOf(req));
    const params = paramsOf(req, createPersonalAccessTokenBody.extend(userIdParam.shape));
    const user = await userOr404(params.id);
    const { record, token } = await users.createToken(user._id, {
      name: params.name,
      scopes: params.scopes,
      expiresAt: params.expires_at ?? daysFromNow(DEFAULT_TOKEN_LIFETIME_DAYS),
    });
    sendJson(res, 201, personalAccessTokenEntity(record, token));
  });

  serve(IDENTITY_API.addUserEmail, async ({ req, res }) => {
    const params = paramsOf(req, addEmailBody.extend(userIdParam.shape));
    const principal = callerOf(req);
    requireAdmin(principal);
    const user = await userOr404(params.id);
    const email = await users.addEmail(
      user,
      params.email,
      params.skip_confirmation ?? false,
      originOfRequest(req),
      eventActor(principal),
    );
    sendJson(res, 201, emailEntity(email));
  });

  serve(IDENTITY_API.listUserEmails, async ({ req, res, params }) => {
    const { id } = params();
    requireAdmin(callerOf(req));
    const user = await userOr404(id);
    const page = pageOf(req);
    const { total, emails } = await users.listEmails(user._id, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(res, 200, emails.map(emailEntity));
  });

  return router;
}
