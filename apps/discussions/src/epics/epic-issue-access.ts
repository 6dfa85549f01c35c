import { ACCESS_LEVELS, type InternalContext } from '@gl/contracts';
import { ForbiddenError, HttpError, NotFoundError } from '@gl/service-kit';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { EpicIssues } from './epic-issues';
import { withFeature } from '../lists/issuables.finder';
import { viewerOfContext, type IssuablesScope, type ScopeProject } from '../lists/issuables.scope';

/** EpicIssues::CreateService's 404 (IssuableLinks::CreateService#issuables_not_found_message). */
export const NO_MATCHING_ISSUE = 'No matching issue found. Make sure that you are adding a valid issue URL.';

/**
 * Ability.issues_readable_by_user over these projects: an issue of a project the caller reads whose issues
 * they may use (read_issue is prevented where the feature is disabled, or private and they are no member),
 * and, confidential, only for Reporter and up there, its author or an assignee.
 */
export function issueReader(ctx: InternalContext, projects: ScopeProject[]) {
  const levels = new Map(withFeature('Issue', projects).map((p) => [p.id, p.level]));
  const viewer = viewerOfContext(ctx);
  return (issue: NoteableDoc): boolean => {
    const level = levels.get(issue.projectId ?? -1);
    if (level === undefined) return false;
    if (!issue.confidential || viewer.isAdmin || level >= ACCESS_LEVELS.reporter) return true;
    return (
      viewer.userId !== null &&
      (issue.author.id === viewer.userId || issue.assigneeIds.includes(viewer.userId))
    );
  };
}

/**
 * The group's projects plus those of these issues that lie outside it. An epic's issues may come from any
 * project (EpicIssues::CreateService no longer limits them to the epic's group), and the gateway signed a
 * context for the epic's group only, so the caller's access to those projects comes from discussions' copy
 * of projects and memberships (identity.projection.ts), which the group routes already waited on.
 */
export async function withIssueProjects(
  scope: Pick<IssuablesScope, 'ofProjectIds'>,
  ctx: InternalContext,
  groupProjects: ScopeProject[],
  issues: (NoteableDoc | null)[],
): Promise<ScopeProject[]> {
  const known = new Set(groupProjects.map((p) => p.id));
  const outside = issues.flatMap((i) =>
    i?.projectId != null && !known.has(i.projectId) ? [i.projectId] : [],
  );
  return [...groupProjects, ...(await scope.ofProjectIds(ctx, outside))];
}

/**
 * `admin_issue_relation` on the issue (app/policies/issue_policy.rb: `can?(:guest_access) &
 * can?(:read_issue)`, so Guest and up in its project, admins included); without it 403. An issue the
 * caller cannot read is `unreadable`: adding one answers as for an unknown id (404, `Issue.find`), so its
 * existence does not show where GitLab's `authorize!` answers 403; removing a link already in the epic
 * keeps GitLab's 403.
 */
export function requireIssueRelation(
  ctx: InternalContext,
  projects: ScopeProject[],
  issue: NoteableDoc,
  unreadable: 'not-found' | 'forbidden',
): ScopeProject {
  if (!issueReader(ctx, projects)(issue)) {
    throw unreadable === 'not-found' ? new NotFoundError() : new ForbiddenError();
  }
  const project = projects.find((p) => p.id === issue.projectId)!;
  if (project.level < ACCESS_LEVELS.guest) throw new ForbiddenError();
  return project;
}

/**
 * What ee/lib/api/epic_issues.rb `post ":id/(-/)epics/:epic_iid/issues/:issue_id"` checks after the epic:
 * `Issue.find` (404), `authorize!(:admin_issue_relation, issue)`, then EpicIssues::CreateService: already
 * in this epic → 409 (IssuableLinks::CreateService#render_conflict_error?), an issue that does not
 * `supports_epic?` → 404 NO_MATCHING_ISSUE (ee/app/models/ee/issue.rb: issue_type_supports?(:epics), which
 * incidents do not, and `project.group.present?`, so not a project of a personal namespace).
 */
export async function relatableIssue(
  deps: { scope: Pick<IssuablesScope, 'ofProjectIds'>; epicIssues: Pick<EpicIssues, 'ofIssue'> },
  ctx: InternalContext,
  epic: NoteableDoc,
  issue: NoteableDoc | null,
  groupProjects: ScopeProject[],
): Promise<{ issue: NoteableDoc; projects: ScopeProject[] }> {
  if (!issue || issue.kind !== 'Issue') throw new NotFoundError();
  const projects = await withIssueProjects(deps.scope, ctx, groupProjects, [issue]);
  const project = requireIssueRelation(ctx, projects, issue, 'not-found');
  if ((await deps.epicIssues.ofIssue(issue._id))?.epicId === epic._id) {
    throw new HttpError(409, { message: 'Issue(s) already assigned' });
  }
  if (issue.issueType === 'incident' || (project.ancestorGroupIds ?? []).length === 0) {
    throw new HttpError(404, { message: NO_MATCHING_ISSUE });
  }
  return { issue, projects };
}
