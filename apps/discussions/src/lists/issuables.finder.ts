import { ACCESS_LEVELS, type ProjectFeature, type Visibility } from '@gl/contracts';
import { featureAvailable, type FeatureLevels } from '@gl/service-kit';
import { withAssignee } from '../noteables/word-filters';
import {
  NOTHING,
  assigneeFilter,
  authorFilter,
  dateRange,
  dueDateFilter,
  isNone,
  labelFilter,
  milestoneFilter,
  milestoneWildcard,
  negatedFilters,
  reactionFilter,
  reviewerFilter,
  searchFilter,
  weightFilter,
  type Filter,
  type FinderLookups,
  type FinderQuery,
  type IssuableKind,
} from './finder-filters';

export type { FinderLookups, FinderQuery, IssuableKind } from './finder-filters';

/**
 * IssuesFinder and MergeRequestsFinder (app/finders/issuable_finder.rb and its params) as one pure
 * function from a list query to a database filter, the same at every scope: a project is the scope of
 * one readable project, a group the readable projects of its subtree, the instance those the caller
 * reads. The readable projects and the names the query uses (milestone titles, usernames) are looked up
 * first (issuables.scope.ts); nothing here reads the database.
 */

/**
 * A project the caller reads, with their level on it (0 none, 60 admin) and its feature levels from the
 * access copy (absent: every feature enabled, as for a project route, whose feature the gate checked).
 */
export interface ReadableProject {
  id: number;
  level: number;
  visibility: Visibility;
  features?: FeatureLevels;
}

export interface FinderViewer {
  userId: number | null;
  isAdmin: boolean;
}

const FEATURE_OF: Record<IssuableKind, ProjectFeature> = { Issue: 'issues', MergeRequest: 'merge_requests' };

/**
 * IssuableFinder#projects: `projects.with_feature_available_for_user(klass, current_user)`
 * (app/finders/issuable_finder.rb, ProjectFeature.with_feature_available_for_user): a project whose issues
 * or merge requests are disabled gives none to any list, `private` ones only to members with the
 * feature's minimum role (Guest for issues, Reporter for merge requests) and to admins. Over the projects
 * already in hand: no read, nothing per item.
 */
export function withFeature(kind: IssuableKind, projects: ReadableProject[]): ReadableProject[] {
  const feature = FEATURE_OF[kind];
  return projects.filter((p) => featureAvailable(p.features, feature, p.level));
}

/**
 * Which items of the readable projects the caller may read, as a filter (IssuesFinder
 * #with_confidentiality_access_check; MergeRequestsFinder through ProjectPolicy read_merge_request):
 * confidential issues for Reporter and up, the author and the assignees; merge requests of private
 * projects for Reporter and up, and Guests who wrote them or are assigned.
 */
export function readableFilter(kind: IssuableKind, inScope: ReadableProject[], viewer: FinderViewer) {
  const projects = withFeature(kind, inScope);
  if (viewer.isAdmin) return { projectId: { $in: projects.map((p) => p.id) } };
  if (kind === 'MergeRequest') {
    // The merge_requests feature of a private project is for Reporter and up (ProjectFeature
    // PRIVATE_FEATURES_MIN_ACCESS_LEVEL): its Guests find none of them in lists.
    const open = projects.filter(
      (p) =>
        p.level >= ACCESS_LEVELS.reporter ||
        p.visibility === 'public' ||
        (p.visibility === 'internal' && viewer.userId !== null),
    );
    return { projectId: { $in: open.map((p) => p.id) } };
  }
  const everything = projects.filter((p) => p.level >= ACCESS_LEVELS.reporter).map((p) => p.id);
  const rest = projects.filter((p) => p.level < ACCESS_LEVELS.reporter).map((p) => p.id);
  const own = viewer.userId === null ? [] : [{ 'author.id': viewer.userId }, withAssignee(viewer.userId)];
  // `$in` rather than `$ne: true`: the database answers it by index (older issues lack the field).
  const readable = [{ confidential: { $in: [false, null] } }, ...own];
  if (rest.length === 0) return { projectId: { $in: everything } };
  // Anonymous callers read only what is not confidential: one condition, no $or.
  if (everything.length === 0 && own.length === 0) return { projectId: { $in: rest }, ...readable[0] };
  if (everything.length === 0) return { projectId: { $in: rest }, $or: readable };
  // Both branches name their projects, so the page is still read through the projectId indexes.
  return {
    projectId: { $in: [...everything, ...rest] },
    $or: [{ projectId: { $in: everything } }, { projectId: { $in: rest }, $or: readable }],
  };
}

export interface FinderInput {
  kind: IssuableKind;
  query: FinderQuery;
  projects: ReadableProject[];
  viewer: FinderViewer;
  lookups: FinderLookups;
  now?: Date;
  /**
   * The root scope every issue of these projects is in (root-scope.ts), when the list is read under it: a
   * condition that changes no answer, only the index the page is read along.
   */
  rootScope?: string | null;
}

/** The whole filter of one list, statistics count or page. */
export function issuableFilter(input: FinderInput, options: { withState: boolean }): Filter {
  const { kind, query, viewer, lookups } = input;
  const now = input.now ?? new Date();
  const parts: Filter[] = [
    { kind },
    ...(input.rootScope ? [{ positionScope: input.rootScope }] : []),
    readableFilter(kind, input.projects, viewer),
  ];
  const scope = (query.scope ?? 'all').replace(/-/g, '_');
  if (scope !== 'all') {
    // IssuableFinder#by_scope: the caller's own items (the route refused anonymous callers already).
    if (viewer.userId === null) parts.push(NOTHING);
    else if (scope === 'created_by_me') parts.push({ 'author.id': viewer.userId });
    else if (scope === 'assigned_to_me') parts.push(withAssignee(viewer.userId));
    else if (scope === 'reviews_for_me') parts.push({ reviewerIds: viewer.userId });
    else parts.push(NOTHING);
  }
  if (options.withState && query.state && query.state !== 'all') {
    // `locked` is a merge request state nothing here enters.
    parts.push({ state: query.state });
  }
  if (query.iids && query.iids.length > 0) parts.push({ iid: { $in: query.iids } });
  if (query.labels) parts.push(...labelFilter(query.labels));
  parts.push(milestoneFilter(query.milestone, query.milestone_id, lookups));
  parts.push(authorFilter(query.author_id, query.author_username));
  parts.push(...assigneeFilter(query.assignee_id, query.assignee_username, lookups));
  parts.push(searchFilter(query.search, query.in));
  parts.push(dateRange('createdAt', query.created_after, query.created_before));
  parts.push(dateRange('updatedAt', query.updated_after, query.updated_before));
  parts.push(reactionFilter(query.my_reaction_emoji, lookups));
  parts.push(...negatedFilters(query.not, lookups));
  if (query.confidential !== undefined) {
    parts.push({ confidential: query.confidential ? true : { $in: [false, null] } });
  }
  if (kind === 'Issue') {
    if (query.closed_by_id !== undefined) parts.push({ 'closedBy.id': query.closed_by_id });
    parts.push(dueDateFilter(query.due_date, now));
    if (query.issue_type) parts.push({ issueType: query.issue_type });
    parts.push(weightFilter(query.weight));
  } else {
    if (query.source_branch !== undefined) parts.push({ sourceBranch: query.source_branch });
    if (query.target_branch !== undefined) parts.push({ targetBranch: query.target_branch });
    // No merge request is a draft here.
    if (query.wip === 'yes' || query.draft === true) parts.push(NOTHING);
    const reviewers = query.reviewer_username === undefined ? undefined : [query.reviewer_username];
    parts.push(reviewerFilter(query.reviewer_id, reviewers, lookups));
    // Nor deployments, nor approvals: those filters select nothing (`approved_by_ids=None` everything).
    if (query.environment !== undefined || query.deployed_before || query.deployed_after) parts.push(NOTHING);
    if (query.approved_by_ids !== undefined && !isNone(query.approved_by_ids)) parts.push(NOTHING);
  }
  const nonEmpty = parts.filter((part) => Object.keys(part).length > 0);
  return { $and: nonEmpty };
}

/**
 * Names the query refers to, for the lookups: milestone titles and usernames (negated ones too), and
 * whether a milestone wildcard (Upcoming, Started) needs the milestones' dates.
 */
export function namesOf(query: FinderQuery): {
  milestoneTitles: string[];
  usernames: string[];
  milestoneWildcards: boolean;
  /** Whether the query filters by the caller's reactions (their awards are then looked up). */
  reactions: boolean;
} {
  const milestones = [
    query.milestone_id ?? query.milestone,
    query.not?.milestone_id ?? query.not?.milestone,
  ].filter((t): t is string => t !== undefined);
  const titles = milestones.filter(
    (t) => !['none', 'any'].includes(t.toLowerCase()) && !milestoneWildcard(t),
  );
  const reviewers = [query.reviewer_username, query.not?.reviewer_username].filter(
    (name): name is string => name !== undefined,
  );
  const usernames = [
    ...(query.assignee_username ?? []),
    ...(query.not?.assignee_username ?? []),
    ...reviewers,
  ];
  return {
    milestoneTitles: titles,
    usernames,
    milestoneWildcards: milestones.some((t) => !!milestoneWildcard(t)),
    reactions: query.my_reaction_emoji !== undefined || query.not?.my_reaction_emoji !== undefined,
  };
}
