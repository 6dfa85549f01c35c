import { Router, type Request } from 'express';
import { IDENTITY_API, type Principal } from '@gl/contracts';
import {
  eventActor,
  HttpError,
  NotFoundError,
  sendJson,
  sendNoContent,
  setPaginationHeaders,
  UnauthorizedError,
} from '@gl/service-kit';
import { requireAdmin } from './access';
import { callerOf, identityRoutes, originOfRequest, pageOf } from './http';
import { EVENT_TYPES, userEvent } from './identity.events';
import type { TokenDoc, UserDoc, UserEmailDoc } from './users.service';
import type { IdentityRouterDeps } from './router-deps';
import { emailEntity, personalAccessTokenEntity } from './users.entities';

const today = (): string => new Date().toISOString().slice(0, 10);

/**
 * The signed-in user's e-mail addresses and an admin's deletion of anyone's (lib/api/users.rb), and
 * personal access tokens (lib/api/personal_access_tokens.rb): list, show, revoke, `self`.
 */
export function createCredentialsRouter(deps: IdentityRouterDeps): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { stores, users } = deps;

  async function userOr404(id: number): Promise<UserDoc> {
    const user = await stores.users.findById(id);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  async function emailOr404(userId: number, emailId: number): Promise<UserEmailDoc> {
    const email = await stores.users.findEmail(userId, emailId);
    if (!email) throw new NotFoundError('Email');
    return email;
  }

  /** Emails::DestroyService: the record goes, and the user's secondary addresses with their event. */
  async function deleteEmail(req: Request, user: UserDoc, email: UserEmailDoc): Promise<void> {
    const updated: UserDoc = {
      ...user,
      emails: user.emails.filter((e) => e.toLowerCase() !== email.emailLower),
      updatedAt: new Date(),
    };
    await stores.users.pullEmail(email, updated.updatedAt, [
      userEvent(originOfRequest(req), EVENT_TYPES.identity.userUpdated, eventActor(callerOf(req)), updated),
    ]);
    deps.outbox.kick();
  }

  serve(IDENTITY_API.getCurrentUserEmail, async ({ req, res, params }) => {
    const { email_id } = params();
    sendJson(res, 200, emailEntity(await emailOr404(callerOf(req).id, email_id)));
  });

  // Emails::CreateService: an address added by its owner waits for confirmation.
  serve(IDENTITY_API.addCurrentUserEmail, async ({ req, res, params }) => {
    const principal = callerOf(req);
    const { email } = params();
    const user = await userOr404(principal.id);
    const record = await users.addEmail(user, email, false, originOfRequest(req), eventActor(principal));
    sendJson(res, 201, emailEntity(record));
  });

  serve(IDENTITY_API.deleteCurrentUserEmail, async ({ req, res, params }) => {
    const principal = callerOf(req);
    const { email_id } = params();
    const user = await userOr404(principal.id);
    const email = await emailOr404(user._id, email_id);
    await deleteEmail(req, user, email);
    sendNoContent(res);
  });

  serve(IDENTITY_API.deleteUserEmail, async ({ req, res, params }) => {
    const principal = callerOf(req);
    requireAdmin(principal);
    const { id, email_id } = params();
    const user = await userOr404(id);
    const email = await emailOr404(user._id, email_id);
    await deleteEmail(req, user, email);
    sendNoContent(res);
  });

  /** Ability :read_user_personal_access_tokens / :revoke_token: the token's user, or an admin. */
  const mayHandle = (principal: Principal, token: TokenDoc): boolean =>
    principal.isAdmin || token.userId === principal.id;

  serve(IDENTITY_API.listPersonalAccessTokens, async ({ req, res, params }) => {
    const principal = callerOf(req);
    const query = params();
    // restrict_non_admins!: another user's tokens are 401 for anyone but an admin.
    if (!principal.isAdmin && query.user_id !== undefined && query.user_id !== principal.id) {
      throw new UnauthorizedError();
    }
    const userId = principal.isAdmin ? query.user_id : principal.id;
    const page = pageOf(req);
    const { total, docs } = await stores.users.listTokens(
      { userId, revoked: query.revoked, state: query.state, search: query.search },
      today(),
      page,
    );
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      docs.map((token) => personalAccessTokenEntity(token)),
    );
  });

  async function currentToken(accessTokenId: number | undefined): Promise<TokenDoc> {
    const token = accessTokenId === undefined ? null : await stores.users.tokenById(accessTokenId);
    if (!token) throw new UnauthorizedError();
    return token;
  }

  serve(IDENTITY_API.getCurrentPersonalAccessToken, async ({ req, res }) => {
    callerOf(req);
    sendJson(res, 200, personalAccessTokenEntity(await currentToken(req.accessTokenId)));
  });

  serve(IDENTITY_API.getPersonalAccessToken, async ({ req, res, params }) => {
    const principal = callerOf(req);
    const { id } = params();
    const token = await stores.users.tokenById(id);
    // Only admins learn whether a token they may not read exists.
    if (!token || !mayHandle(principal, token)) {
      // not_found! without a resource: "404 Not Found".
      if (principal.isAdmin) throw new HttpError(404, { message: '404 Not Found' });
      throw new UnauthorizedError();
    }
    sendJson(res, 200, personalAccessTokenEntity(token));
  });

  /** PersonalAccessTokens::RevokeService: 204, or `bad_request!` with its message. */
  async function revoke(principal: Principal, token: TokenDoc): Promise<void> {
    if (!mayHandle(principal, token)) {
      throw new HttpError(400, { message: '400 Bad request - Not permitted to revoke' });
    }
    await stores.users.revokeToken(token._id);
  }

  serve(IDENTITY_API.revokeCurrentPersonalAccessToken, async ({ req, res }) => {
    const principal = callerOf(req);
    await revoke(principal, await currentToken(req.accessTokenId));
    sendNoContent(res);
  });

  serve(IDENTITY_API.revokePersonalAccessToken, async ({ req, res, params }) => {
    const principal = callerOf(req);
    const { id } = params();
    const token = await stores.users.tokenById(id);
    // PersonalAccessToken.find raises RecordNotFound, which the API renders as 404 Not found.
    if (!token) throw new HttpError(404, { message: '404 Not found' });
    await revoke(principal, token);
    sendNoContent(res);
  });

  return router;
}
