import type {
  InternalContext,
  NamespaceContext,
  Principal,
  TargetAudience,
  UserSummary,
} from '@gl/contracts';
import { ACCESS_LEVELS } from '@gl/contracts';
import {
  ForbiddenError,
  NotFoundError,
  accessLevelOf,
  canReadTarget,
  requireUser,
  viewerOf,
  type AccessTarget,
  type TargetKind,
} from '@gl/service-kit';
import type { NoteableDoc, NoteableKind } from '../noteables/noteable.model';

/**
 * GitLab's abilities as far as this service needs them, from the signed context: reading follows the
 * namespace's visibility, writing needs a user and a role.
 */
export function readableNamespace(ctx: InternalContext, kind: 'group' | 'project'): NamespaceContext {
  const ns = ctx.namespace;
  // Built only when thrown: an error captures its stack when made, on every request otherwise.
  const missing = () => new NotFoundError(kind === 'group' ? 'Group' : 'Project');
  if (!ns || ns.kind !== kind) throw missing();
  if (ns.visibility === 'public') return ns;
  if (ns.visibility === 'internal' && ctx.principal) return ns;
  if (accessLevelOf(ctx) >= ACCESS_LEVELS.guest) return ns;
  throw missing();
}

/** A signed-in user who can see the namespace: GitLab lets them comment (Guest and up on private ones). */
export function commenter(ctx: InternalContext, kind: 'group' | 'project'): Principal {
  const user = requireUser(ctx);
  readableNamespace(ctx, kind);
  return user;
}

const KIND_OF: Record<NoteableKind, TargetKind> = {
  Issue: 'Issue',
  MergeRequest: 'MergeRequest',
  Snippet: 'Snippet',
  Epic: 'Epic',
};

/**
 * The facts the read rule needs about a noteable (the same ones its domain events carry as `audience`):
 * confidentiality of issues and epics, a snippet's visibility, author and assignees.
 */
export function audienceOf(doc: NoteableDoc): TargetAudience {
  const audience: TargetAudience = { authorId: doc.author.id };
  if (doc.kind === 'Issue' || doc.kind === 'Epic') audience.confidential = doc.confidential ?? false;
  if (doc.kind === 'Issue' || doc.kind === 'MergeRequest') audience.assigneeIds = doc.assigneeIds ?? [];
  if (doc.kind === 'Snippet') audience.visibility = doc.visibility ?? 'private';
  return audience;
}

export function accessTargetOf(doc: NoteableDoc): AccessTarget {
  return { kind: KIND_OF[doc.kind], ...audienceOf(doc) };
}

/** `read_issue`, `read_merge_request`, `read_snippet`, `read_epic` on one noteable (target-access.ts). */
export function canReadNoteable(ctx: InternalContext, doc: NoteableDoc): boolean {
  return canReadTarget(viewerOf(ctx), accessTargetOf(doc));
}

/**
 * ProjectPolicy `read_merge_request` on the project: everyone on public projects, signed-in users on internal
 * ones (`public_access`), Reporter and up otherwise; a Guest of a private project cannot list them.
 */
export function canReadMergeRequests(ctx: InternalContext): boolean {
  return canReadTarget(viewerOf(ctx), { kind: 'MergeRequest' });
}

/** `read_code` / `download_code` on the project: commits, their threads. */
export function canReadCode(ctx: InternalContext): boolean {
  return canReadTarget(viewerOf(ctx), { kind: 'Code' });
}

/** `read_note` on a note of a target: the target's own rule, and `read_internal_note` for internal ones. */
export function canReadNote(
  ctx: InternalContext,
  target: AccessTarget,
  note: { internal?: boolean },
): boolean {
  return canReadTarget(viewerOf(ctx), { ...target, internal: note.internal ?? false });
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
