import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, ISSUE_UPDATE_AT_LEAST_ONE_OF } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  accessLevelOf,
  atLeastOneOf,
  canReadTarget,
  collectParams,
  isHigherTier,
  requestOrigin,
  requireUser,
  route,
  seesEveryTarget,
  sendJson,
  viewerOf,
} from '@gl/service-kit';
import {
  accessTargetOf,
  canReadNoteable,
  canSetCreatedAt,
  commenter,
  readableNamespace,
  requireRole,
  userSummaryOf,
} from './discussions.access';
import { presentEpic, presentSnippet } from './discussions.presenters';
import type { NoteableDoc } from './discussions.models';
import { readPage, sendPage } from './discussions.http';
import { parseCreatedAt } from './notes.service';
import { SERVICE_PRODUCER } from './discussions.origin';
import { positionScopeOfNamespace } from './issuables.scope';
import type { NoteablesService } from './noteables.service';
import { routeIssueRelations } from './issue-relations.router';
import { filesToCreate, routeProjectSnippets } from './snippets.router';
import { routeGroupEpics } from './epics.router';
import { labelsAfter } from './label-changes';
import {
  createSingleIssuables,
  routeIssuableSubscriptions,
  weightParam,
} from './issuable-subscriptions.router';
import { checkIssueEpicParams, issueEpicParam, issueProjectOf } from './issue-epic-params';
import type { ListVisibility } from './noteables.store';
import { pathIdOf } from './path-ids';

/** Epics are a higher-tier feature: without it GitLab's `authorize_epics_feature!` answers 403. */
export function requireEpicsFeature(req: Request): void {
  if (!isHigherTier(req.ctx)) throw new ForbiddenError();
}

/** Which items of a list the caller reads: all of them (admins, Reporter and up), else each by the rule. */
export function listVisibility(req: Request, kind?: 'Snippet'): ListVisibility {
  const viewer = viewerOf(req.ctx);
  if (seesEveryTarget(viewer)) return 'all';
  // SnippetsFinder (Snippet.for_project_with_user) lists only public_to_user snippets to non-members: the
  // author of a private snippet reads it (ProjectSnippetPolicy) but no longer finds it in the list.
  if (kind === 'Snippet')
    return (doc) => canReadTarget(viewer, { ...accessTargetOf(doc), authorId: undefined });
  return (doc) => canReadNoteable(req.ctx, doc);
}

export function createNoteablesRouter(noteables: NoteablesService): Router {
  const router = Router();

  async function issueOr404(req: Request): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'project');
    const issue = await noteables.findByIid('Issue', 'projectId', ns.id, pathIdOf(req, 'issue_iid'));
    // IssuesFinder leaves out confidential issues the caller cannot read: find_by! → "404 Not found".
    if (!issue || !canReadNoteable(req.ctx, issue)) throw new NotFoundError();
    return issue;
  }

  async function findMergeRequest(req: Request): Promise<NoteableDoc | null> {
    const ns = readableNamespace(req.ctx, 'project');
    return noteables.findByIid('MergeRequest', 'projectId', ns.id, pathIdOf(req, 'merge_request_iid'));
  }

  async function mergeRequestOr404(req: Request): Promise<NoteableDoc> {
    const mr = await findMergeRequest(req);
    if (!mr) throw new NotFoundError();
    // find_merge_request_with_access: `authorize! :read_merge_request, merge_request` → 403.
    if (!canReadNoteable(req.ctx, mr)) throw new ForbiddenError();
    return mr;
  }

  /** `update_issue` / `update_merge_request`: author or assignee, or the role that administers them. */
  function requireUpdate(req: Request, doc: NoteableDoc, minimum: number): void {
    const user = requireUser(req.ctx);
    const own = doc.author.id === user.id || doc.assigneeIds.includes(user.id);
    if (!own && accessLevelOf(req.ctx) < minimum) throw new ForbiddenError();
  }

  // Single-issuable answers: `subscribed`, reviewers, weight and epic (issuable-subscriptions.router.ts).
  const present = createSingleIssuables(noteables);
  /**
   * IssuableBaseService#filter_params: `confidential` is kept only with `set_confidentiality` — anyone who
   * may create the issue when creating it, `set_issue_metadata` (Reporter and up) afterwards; else ignored.
   */
  function confidentialityParam(req: Request, value: boolean | undefined, creating: boolean) {
    if (creating || accessLevelOf(req.ctx) >= ACCESS_LEVELS.reporter) return value;
    return undefined;
  }

  // Issues (lists: issuables.router.ts)
  route(router, DISCUSSIONS_API.createProjectIssue, async ({ req, res, params }) => {
    const user = commenter(req.ctx, 'project');
    const { epic_id, epic_iid, ...given } = params();
    checkIssueEpicParams(req);
    // The epic is resolved before the issue is stored: an unknown one leaves no issue behind.
    const epic = await issueEpicParam(noteables, req, { epic_id, epic_iid });
    const createdAt = canSetCreatedAt(req.ctx) ? parseCreatedAt(given.created_at) : null;
    const origin = requestOrigin(SERVICE_PRODUCER, req.ctx);
    const author = userSummaryOf(user);
    const doc = await noteables.createIssue(
      origin,
      req.ctx.namespace!.id,
      author,
      {
        ...given,
        // EE Issues::BaseService#filter_epic: a new issue of a confidential epic is confidential.
        confidential: epic?.confidential ? true : confidentialityParam(req, given.confidential, true),
        weight: weightParam(req, given.weight),
      },
      createdAt,
      positionScopeOfNamespace(req.ctx.namespace!),
    );
    if (epic) await noteables.setIssueEpic(origin, doc, epic, author, issueProjectOf(req));
    sendJson(res, 201, await present.issue(doc, req));
  });

  route(router, DISCUSSIONS_API.getProjectIssue, async ({ req, res }) => {
    sendJson(res, 200, await present.issue(await issueOr404(req), req));
  });

  route(router, DISCUSSIONS_API.updateProjectIssue, async ({ req, res, params }) => {
    const user = requireUser(req.ctx);
    const given = params();
    const missing = atLeastOneOf(...ISSUE_UPDATE_AT_LEAST_ONE_OF)(collectParams(req));
    if (missing) throw new ParamError([missing]);
    checkIssueEpicParams(req);
    const issue = await issueOr404(req);
    requireUpdate(req, issue, ACCESS_LEVELS.reporter);
    const {
      add_labels: add,
      remove_labels: remove,
      assignee_id: assigneeId,
      epic_id,
      epic_iid,
      ...rest
    } = given;
    const epic = await issueEpicParam(noteables, req, { epic_id, epic_iid });
    const origin = requestOrigin(SERVICE_PRODUCER, req.ctx);
    const author = userSummaryOf(user);
    const updated = await noteables.updateIssue(origin, issue, author, {
      ...rest,
      labels: labelsAfter(issue.labels, given.labels, add, remove),
      // The single-assignee form counts only without assignee_ids (IssuableBaseService#filter_assignees).
      assignee_ids:
        given.assignee_ids ?? (assigneeId === undefined ? undefined : assigneeId === 0 ? [] : [assigneeId]),
      confidential: confidentialityParam(req, given.confidential, false),
      // `discussion_locked` needs admin_issue (Reporter and up); IssuableBaseService drops it otherwise.
      discussion_locked:
        accessLevelOf(req.ctx) >= ACCESS_LEVELS.reporter ? given.discussion_locked : undefined,
      // lib/api/issues.rb: `updated_at` only with set_issue_updated_at (Owner, admins).
      updated_at: canSetCreatedAt(req.ctx) ? parseCreatedAt(given.updated_at) : null,
      weight: weightParam(req, given.weight),
    });
    if (epic !== undefined) await noteables.setIssueEpic(origin, updated, epic, author, issueProjectOf(req));
    sendJson(res, 200, await present.issue(updated, req));
  });

  // Merge requests (lists: issuables.router.ts)
  route(router, DISCUSSIONS_API.createProjectMergeRequest, async ({ req, res, params }) => {
    readableNamespace(req.ctx, 'project');
    const user = requireRole(req.ctx, ACCESS_LEVELS.developer);
    const given = params();
    const doc = await noteables.createMergeRequest(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      req.ctx.namespace!.id,
      userSummaryOf(user),
      { ...given, reviewer_ids: await noteables.reviewerIds(req, given.reviewer_ids) },
    );
    sendJson(res, 201, await present.mergeRequest(doc, req));
  });

  route(router, DISCUSSIONS_API.getProjectMergeRequest, async ({ req, res }) => {
    sendJson(res, 200, await present.mergeRequest(await mergeRequestOr404(req), req));
  });

  /**
   * lib/api/merge_requests.rb `merge`: find_project_merge_request (MergeRequestsFinder: an unreadable merge
   * request is not found, 404), then `unauthorized! unless merge_request.can_be_merged_by?(current_user)`
   * (401). Branches are not protected here, so whoever may push (Developer and up) may merge.
   */
  route(router, DISCUSSIONS_API.mergeProjectMergeRequest, async ({ req, res }) => {
    const user = requireUser(req.ctx);
    const mr = await findMergeRequest(req);
    if (!mr || !canReadNoteable(req.ctx, mr)) throw new NotFoundError();
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.developer) {
      throw new HttpError(401, { message: '401 Unauthorized' });
    }
    if (mr.state !== 'opened') throw new HttpError(405, { message: '405 Method Not Allowed' });
    const merged = await noteables.mergeMergeRequest(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      mr,
      userSummaryOf(user),
      user.email,
      req.ctx.namespace!.fullPath,
    );
    sendJson(res, 200, await present.mergeRequest(merged, req));
  });

  route(router, DISCUSSIONS_API.updateProjectMergeRequest, async ({ req, res, params }) => {
    const user = requireUser(req.ctx);
    const mr = await mergeRequestOr404(req);
    requireUpdate(req, mr, ACCESS_LEVELS.developer);
    const given = params();
    const updated = await noteables.updateMergeRequest(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      mr,
      userSummaryOf(user),
      { ...given, reviewer_ids: await noteables.reviewerIds(req, given.reviewer_ids) },
    );
    sendJson(res, 200, await present.mergeRequest(updated, req));
  });

  // Project snippets
  route(router, DISCUSSIONS_API.listProjectSnippets, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    params();
    // SnippetsFinder: members see every snippet of the project, others the public (and, signed in, internal)
    // ones, authors their own.
    const filter = { kind: 'Snippet', scope: 'projectId', parentId: ns.id } as const;
    const list = await readPage(req, (skip, limit) =>
      noteables.list(filter, skip, limit, listVisibility(req, 'Snippet')),
    );
    await sendPage(req, res, list, (items) => items.map((doc) => presentSnippet(doc, ns)));
  });

  route(router, DISCUSSIONS_API.createProjectSnippet, async ({ req, res, params }) => {
    readableNamespace(req.ctx, 'project');
    const user = requireRole(req.ctx, ACCESS_LEVELS.reporter);
    const given = params();
    const doc = await noteables.createSnippet(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      req.ctx.namespace!.id,
      userSummaryOf(user),
      {
        title: given.title,
        description: given.description,
        visibility: given.visibility ?? 'private',
        files: filesToCreate(req, given),
      },
    );
    sendJson(res, 201, presentSnippet(doc, req.ctx.namespace!));
  });

  route(router, DISCUSSIONS_API.getProjectSnippet, async ({ req, res }) => {
    const ns = readableNamespace(req.ctx, 'project');
    const snippet = await noteables.findSnippet(ns.id, pathIdOf(req, 'snippet_id'));
    // `authorize! :read_snippet, snippet` is answered as the finder would: not found.
    if (!snippet || !canReadNoteable(req.ctx, snippet)) throw new NotFoundError('Snippet');
    sendJson(res, 200, presentSnippet(snippet, ns));
  });

  // Group epics [higher tier]
  route(router, DISCUSSIONS_API.listGroupEpics, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireEpicsFeature(req);
    params();
    // EpicsFinder#with_confidentiality_access_check: confidential epics only for Reporter and up.
    const filter = { kind: 'Epic', scope: 'groupId', parentId: ns.id } as const;
    const list = await readPage(req, (skip, limit) =>
      noteables.list(filter, skip, limit, listVisibility(req)),
    );
    await sendPage(req, res, list, (items) => items.map((doc) => presentEpic(doc, ns)));
  });

  route(router, DISCUSSIONS_API.createGroupEpic, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireUser(req.ctx);
    requireEpicsFeature(req);
    const user = requireRole(req.ctx, ACCESS_LEVELS.reporter);
    const doc = await noteables.createEpic(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      ns.id,
      userSummaryOf(user),
      params(),
    );
    sendJson(res, 201, presentEpic(doc, ns));
  });

  route(router, DISCUSSIONS_API.getGroupEpic, async ({ req, res }) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireEpicsFeature(req);
    const epic = await noteables.findByIid('Epic', 'groupId', ns.id, pathIdOf(req, 'epic_iid'));
    // GitLab's `authorize!(:read_epic, epic)` runs on a nil epic: an unknown iid is 403, not 404; so is a
    // confidential epic the caller may not read.
    if (!epic || !canReadNoteable(req.ctx, epic)) throw new ForbiddenError();
    sendJson(res, 200, presentEpic(epic, ns));
  });

  // Participants, closing and related merge requests, deletion (issue-relations.router.ts).
  routeIssueRelations(router, noteables);
  // PUT, raw and DELETE of project snippets (snippets.router.ts).
  routeProjectSnippets(router, noteables);
  // PUT and DELETE of epics (epics.router.ts).
  routeGroupEpics(router, noteables);
  // Subscriptions of the caller to issues and merge requests (issuable-subscriptions.router.ts).
  routeIssuableSubscriptions(router, noteables);

  return router;
}
