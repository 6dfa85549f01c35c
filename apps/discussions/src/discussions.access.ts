import type { InternalContext, NamespaceContext, Principal, UserSummary } from '@gl/contracts';
import { ACCESS_LEVELS } from '@gl/contracts';
import { ForbiddenError, NotFoundError, accessLevelOf, requireUser } from '@gl/service-kit';

/**
 * GitLab's abilities as far as this service needs them, from the signed context: reading follows the
 * namespace's visibility, writing needs a user and a role.
 */
export function readableNamespace(ctx: InternalContext, kind: 'group' | 'project'): NamespaceContext {
  const ns = ctx.namespace;
  const missing = new NotFoundError(kind === 'group' ? 'Group' : 'Project');
  if (!ns || ns.kind !== kind) throw missing;
  if (ns.visibility === 'public') return ns;
  if (ns.visibility === 'internal' && ctx.principal) return ns;
  if (accessLevelOf(ctx) >= ACCESS_LEVELS.guest) return ns;
  throw missing;
}

/** A signed-in user who can see the namespace: GitLab lets them comment (Guest and up on private ones). */
export function commenter(ctx: InternalContext, kind: 'group' | 'project'): Principal {
  const user = requireUser(ctx);
  readableNamespace(ctx, kind);
  return user;
}

/**
 * ProjectPolicy `read_merge_request` on the project: everyone on public projects, signed-in users on internal
 * ones (`public_access`), Reporter and up otherwise; a Guest of a private project cannot list them.
 */
export function canReadMergeRequests(ctx: InternalContext): boolean {
  const ns = ctx.namespace;
  if (!ns) return false;
  if (ns.visibility === 'public') return true;
  if (ns.visibility === 'internal' && ctx.principal) return true;
  return accessLevelOf(ctx) >= ACCESS_LEVELS.reporter;
}

/** `read_merge_request` on one merge request: IssuablePolicy adds Guests who authored it or are assigned. */
export function canReadMergeRequest(
  ctx: InternalContext,
  mr: { author: { id: number }; assigneeIds: number[] },
): boolean {
  if (canReadMergeRequests(ctx)) return true;
  const user = ctx.principal;
  if (!user || accessLevelOf(ctx) < ACCESS_LEVELS.guest) return false;
  return mr.author.id === user.id || mr.assigneeIds.includes(user.id);
}

export function requireRole(ctx: InternalContext, minimum: number): Principal {
  const user = requireUser(ctx);
  if (accessLevelOf(ctx) < minimum) throw new ForbiddenError();
  return user;
}

/** `admin_note`: the author, or Maintainer and up; never on system notes (NotePolicy: `~editable`). */
export function canAdminNote(
  ctx: InternalContext,
  note: { system: boolean; author: { id: number } },
): boolean {
  if (note.system) return false;
  return ctx.principal?.id === note.author.id || accessLevelOf(ctx) >= ACCESS_LEVELS.maintainer;
}

/** `set_note_created_at`: admins and owners of the project or group. */
export function canSetCreatedAt(ctx: InternalContext): boolean {
  return accessLevelOf(ctx) >= ACCESS_LEVELS.owner;
}

export function userSummaryOf(principal: Principal): UserSummary {
  return {
    id: principal.id,
    username: principal.username,
    name: principal.name,
    state: principal.state,
    locked: false,
    avatar_url: principal.avatar_url,
    web_url: principal.web_url,
  };
}

export function actorOf(user: UserSummary | Principal): { id: number; username: string; name: string } {
  return { id: user.id, username: user.username, name: user.name };
}
