import { ACCESS_LEVELS, type InternalContext, type TargetAudience, type Visibility } from '@gl/contracts';

/**
 * "May this viewer read this target": GitLab's read abilities per kind of target, as one pure function that
 * every service applies the same way — the discussions service on its own resources, the events service on
 * the activity events that name them (GitLab's Event#visible_to_user? asks the same policies, per event).
 *
 * Kinds and the ability each needs (app/models/event.rb `capabilities`):
 * - Project   membership changes, project created — `read_project`
 * - Milestone `read_milestone` (follows the project or group)
 * - Issue     `read_issue` (IssuePolicy: confidential ones only for author, assignees, Reporter and up)
 * - MergeRequest `read_merge_request` (ProjectPolicy + IssuablePolicy)
 * - Snippet   `read_snippet` (ProjectSnippetPolicy)
 * - Epic      `read_epic` (ee/app/policies/epic_policy.rb)
 * - Code      commits, commit notes and pushes — `download_code` / `read_code`
 * A note is read with its noteable's kind and audience, plus `internal` (NotePolicy / `read_internal_note`).
 */
export type TargetKind = 'Project' | 'Milestone' | 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic' | 'Code';

export interface AccessTarget extends TargetAudience {
  kind: TargetKind;
}

export interface TargetViewer {
  /** Null: anonymous. */
  userId: number | null;
  isAdmin: boolean;
  /** Membership level on the project or group holding the target (0 none), inherited from its groups. */
  accessLevel: number;
  /** Visibility of that project or group. */
  namespaceVisibility: Visibility;
}

/** The caller of a request, on the namespace the gateway resolved for it. */
export function viewerOf(ctx: InternalContext): TargetViewer {
  return {
    userId: ctx.principal?.id ?? null,
    isAdmin: ctx.principal?.isAdmin ?? false,
    accessLevel: ctx.namespace?.accessLevel ?? ACCESS_LEVELS.none,
    namespaceVisibility: ctx.namespace?.visibility ?? 'private',
  };
}

/**
 * `read_project` / `read_group`: public to everyone, internal to signed-in users, private to members
 * (Guest and up); admins read everything (`read_all_resources`).
 */
export function canReadNamespace(viewer: TargetViewer): boolean {
  if (viewer.isAdmin || viewer.namespaceVisibility === 'public') return true;
  if (viewer.namespaceVisibility === 'internal' && viewer.userId !== null) return true;
  return viewer.accessLevel >= ACCESS_LEVELS.guest;
}

const isReporter = (viewer: TargetViewer): boolean => viewer.accessLevel >= ACCESS_LEVELS.reporter;

function isAuthorOrAssignee(viewer: TargetViewer, target: AccessTarget): boolean {
  if (viewer.userId === null) return false;
  return target.authorId === viewer.userId || (target.assigneeIds ?? []).includes(viewer.userId);
}

/**
 * What the project's visibility grants to non-members for merge requests and code: ProjectPolicy's
 * `public_access` (public projects) and `internal_access` (internal ones, signed in); members need Reporter
 * (a Guest of a private project reads neither merge requests nor code).
 */
function openToNonMembers(viewer: TargetViewer): boolean {
  if (viewer.namespaceVisibility === 'public') return true;
  return viewer.namespaceVisibility === 'internal' && viewer.userId !== null;
}

function canReadKind(viewer: TargetViewer, target: AccessTarget): boolean {
  switch (target.kind) {
    case 'Project':
    case 'Milestone':
      return true;
    case 'Issue':
      // IssuePolicy `can_read_confidential`: admin, Reporter (Planner in new GitLab), author or assignee.
      return !target.confidential || isReporter(viewer) || isAuthorOrAssignee(viewer, target);
    case 'MergeRequest':
      // ProjectPolicy `read_merge_request`; IssuablePolicy adds Guests who authored it or are assigned.
      if (openToNonMembers(viewer) || isReporter(viewer)) return true;
      return viewer.accessLevel >= ACCESS_LEVELS.guest && isAuthorOrAssignee(viewer, target);
    case 'Snippet': {
      // ProjectSnippetPolicy: public snippets to whoever reads the project; internal ones to signed-in users;
      // private ones only to members (`project.guest`) and the author. SnippetsFinder lists the same set.
      const visibility = target.visibility ?? 'private';
      if (visibility === 'public') return true;
      if (visibility === 'internal' && viewer.userId !== null) return true;
      if (viewer.accessLevel >= ACCESS_LEVELS.guest) return true;
      return viewer.userId !== null && target.authorId === viewer.userId;
    }
    case 'Epic':
      // EpicPolicy: confidential & ~read_confidential_epic (GroupPolicy: Reporter and up) prevents read_epic;
      // unlike issues there is no author or assignee exception.
      return !target.confidential || isReporter(viewer);
    case 'Code':
      // `download_code`: everyone on public projects, signed-in users on internal ones, Reporter and up.
      return openToNonMembers(viewer) || isReporter(viewer);
  }
}

/** The one read rule: the namespace first, then the target's kind and audience, then an internal note. */
export function canReadTarget(viewer: TargetViewer, target: AccessTarget): boolean {
  if (!canReadNamespace(viewer)) return false;
  if (viewer.isAdmin) return true;
  if (!canReadKind(viewer, target)) return false;
  // `read_internal_note`: ProjectPolicy / GroupPolicy `admin | planner_or_reporter_access`.
  return !target.internal || isReporter(viewer);
}

/**
 * Whether the viewer reads every target of the namespace whatever its audience (admins, Reporter and up):
 * callers skip the per-target check then. canReadTarget agrees for every kind (target-access.spec.ts).
 */
export function seesEveryTarget(viewer: TargetViewer): boolean {
  return viewer.isAdmin || isReporter(viewer);
}

/** The reader who reads least of any namespace's readers: an anonymous caller on a public project. */
export const LEAST_READER: TargetViewer = {
  userId: null,
  isAdmin: false,
  accessLevel: ACCESS_LEVELS.none,
  namespaceVisibility: 'public',
};

/**
 * Whether the viewer reads at least every target LEAST_READER reads (readers of public projects, signed-in
 * readers of internal ones, Reporter and up): a list holding only targets LEAST_READER reads needs no
 * per-target check for them (target-access.spec.ts checks the claim for every kind).
 */
export function readsWhatAnyoneReads(viewer: TargetViewer): boolean {
  return seesEveryTarget(viewer) || (canReadNamespace(viewer) && openToNonMembers(viewer));
}
