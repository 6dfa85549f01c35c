import type { Resources } from '../resources';
import type { CallerName, Sight, Visibility, Who } from '../sight';
import type { Target, World } from '../world';

/** What a rule's builders see: the world, the target of this cell, the caller, and a fresh resource. */
export interface CellContext {
  world: World;
  target: Target;
  r: Resources;
  caller: CallerName;
  visibility: Visibility;
}

export type ParamValues = Record<string, string | number>;

/**
 * Resources a destructive cell gets of its own (fresh.ts), so that no cell destroys what another needs
 * (and a refusal that wrongly succeeds spoils no other cell).
 */
export type FreshKind =
  | 'subgroup'
  | 'project'
  | 'groupMember'
  | 'projectMember'
  | 'issue'
  | 'mergeRequest'
  | 'snippet'
  | 'epic'
  | 'epicIssue'
  | 'epicIssueLink'
  | 'issueLink'
  | 'resourceEvent'
  | 'thread'
  | 'award'
  | 'label'
  | 'projectLabel'
  | 'projectMilestone'
  | 'board'
  | 'list'
  | 'projectBoard'
  | 'projectList'
  | 'integration'
  | 'projectHook'
  | 'groupHook'
  | 'repository'
  | 'tag'
  | 'user'
  | 'bannedUser';

/** A list answer must show an item to exactly the callers `sight` lets see it. */
export interface ListCheck {
  name: string;
  match: (item: Record<string, unknown>, c: CellContext) => boolean;
  sight: Sight;
}

/** The same operation on another resource (a private snippet, a confidential epic…) with its own rule. */
export interface Variant {
  name: string;
  params?: (c: CellContext) => ParamValues;
  body?: (c: CellContext) => unknown;
  see?: Sight;
  need?: Sight;
  denied?: 403 | 404;
  role?: Who;
  /** On these target visibilities the request itself is invalid: whoever may write gets 400. */
  invalidOn?: Visibility[];
  source: string;
}

export interface Rule {
  /** What the path's `id` names; `none`: the operation is the same for every visibility (run once). */
  target: 'none' | 'group' | 'project';
  /**
   * An anonymous caller on a read: 401 where GitLab calls `authenticate!` first, 403 where it answers
   * `forbidden!`, `sight` where the read rule decides. Anonymous writes are always 401 (authenticate!
   * runs before the resource is looked up). Default: 401 when the contract requires a token, else sight.
   */
  anonymous?: 401 | 403 | 'sight';
  /** See Gate.anonymousWrite; default 401. */
  anonymousWrite?: 401 | 'lookup-first';
  /** Who finds the target; others get `hidden` (404: `find_group!` / `find_project!` / finders). */
  see?: Sight;
  hidden?: 400 | 403 | 404;
  /** An ability on the found target (a feature, a confidential record); others get `denied`. */
  need?: Sight;
  denied?: 403 | 404;
  /** The least role a write needs once the target is found; others get `roleDenied` (403). */
  role?: Who;
  roleDenied?: 400 | 401 | 403;
  fresh?: FreshKind;
  params?: (c: CellContext) => ParamValues;
  query?: (c: CellContext) => Record<string, string>;
  body?: (c: CellContext) => unknown;
  lists?: ListCheck[];
  variants?: Variant[];
  /**
   * Authenticated by something other than a user's token, or addressing the caller's own credential (an
   * e-mail or token id only its owner has, or the request's own token): checked by its own cases, not the
   * matrix.
   */
  special?: 'registry-secret' | 'integration-token' | 'caller-owned';
  /** The GitLab file(s) the rule comes from. */
  source: string;
}

export type Rules = Record<string, Rule>;
