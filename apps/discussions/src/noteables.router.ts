import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  createEpicBody,
  createIssueBody,
  createMergeRequestBody,
  createSnippetBody,
  listDiscussionsQuery,
  listIssuesQuery,
  listMergeRequestsQuery,
  positiveIdParam,
  updateIssueBody,
  updateMergeRequestBody,
} from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  accessLevelOf,
  canReadTarget,
  collectParams,
  isHigherTier,
  parseParams,
  requireExactlyOne,
  requireUser,
  seesEveryTarget,
  sendJson,
  viewerOf,
} from '@gl/service-kit';
import {
  accessTargetOf,
  canReadMergeRequests,
  canReadNote,
  canReadNoteable,
  canSetCreatedAt,
  commenter,
  readableNamespace,
  requireRole,
  userSummaryOf,
} from './discussions.access';
import { presentEpic, presentIssue, presentMergeRequest, presentSnippet } from './discussions.presenters';
import type { NoteableDoc } from './discussions.models';
import { readPage, sendPage } from './discussions.http';
import { parseCreatedAt } from './notes.service';
import { originOf } from './discussions.origin';
import type { NoteablesService } from './noteables.service';
import type { ListVisibility } from './noteables.store';

export function pathId(req: Request, name: string): number {
  return parseParams(z.object({ [name]: positiveIdParam }), { [name]: req.params[name] })[name] as number;
}

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
    const issue = await noteables.findByIid('Issue', 'projectId', ns.id, pathId(req, 'issue_iid'));
    // IssuesFinder leaves out confidential issues the caller cannot read: find_by! → "404 Not found".
    if (!issue || !canReadNoteable(req.ctx, issue)) throw new NotFoundError();
    return issue;
  }

  async function findMergeRequest(req: Request): Promise<NoteableDoc | null> {
    const ns = readableNamespace(req.ctx, 'project');
    return noteables.findByIid('MergeRequest', 'projectId', ns.id, pathId(req, 'merge_request_iid'));
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

  const extras = async (doc: NoteableDoc, req: Request) => ({
    milestone: await noteables.milestone(doc.milestoneId),
    // Internal notes are counted only for callers who may read them.
    userNotesCount: await noteables.userNotesCount(
      doc,
      canReadNote(req.ctx, accessTargetOf(doc), { internal: true }),
    ),
  });
  const present = {
    issue: async (doc: NoteableDoc, req: Request) =>
      presentIssue(doc, req.ctx.namespace!, await extras(doc, req)),
    mergeRequest: async (doc: NoteableDoc, req: Request) =>
      presentMergeRequest(doc, req.ctx.namespace!, await extras(doc, req)),
  };
  /** A page of issues or merge requests, their milestones and note counts read for the page at once. */
  async function presentPage(
    docs: NoteableDoc[],
    req: Request,
    as: typeof presentIssue | typeof presentMergeRequest,
  ) {
    const extrasById = await noteables.pageExtras(docs, (doc) =>
      canReadNote(req.ctx, accessTargetOf(doc), { internal: true }),
    );
    return docs.map((doc) => as(doc, req.ctx.namespace!, extrasById.get(doc._id)!));
  }

  /**
   * IssuableBaseService#filter_params: `confidential` is kept only with `set_confidentiality` — anyone who
   * may create the issue when creating it, `set_issue_metadata` (Reporter and up) afterwards; else ignored.
   */
  function confidentialityParam(req: Request, value: boolean | undefined, creating: boolean) {
    if (creating || accessLevelOf(req.ctx) >= ACCESS_LEVELS.reporter) return value;
    return undefined;
  }

  // Issues
  router.get('/projects/:id/issues', async (req, res) => {
    const ns = readableNamespace(req.ctx, 'project');
    const query = parseParams(listIssuesQuery, req.query);
    const filter = {
      kind: 'Issue',
      scope: 'projectId',
      parentId: ns.id,
      state: query.state,
      iids: query.iids,
    } as const;
    const list = await readPage(req, (skip, limit) =>
      noteables.list(filter, skip, limit, listVisibility(req)),
    );
    await sendPage(req, res, list, (items) => presentPage(items, req, presentIssue));
  });

  router.post('/projects/:id/issues', async (req, res) => {
    const user = commenter(req.ctx, 'project');
    const params = parseParams(createIssueBody, collectParams(req));
    const createdAt = canSetCreatedAt(req.ctx) ? parseCreatedAt(params.created_at) : null;
    const doc = await noteables.createIssue(
      originOf(req),
      req.ctx.namespace!.id,
      userSummaryOf(user),
      { ...params, confidential: confidentialityParam(req, params.confidential, true) },
      createdAt,
    );
    sendJson(res, 201, await present.issue(doc, req));
  });

  router.get('/projects/:id/issues/:issue_iid', async (req, res) => {
    sendJson(res, 200, await present.issue(await issueOr404(req), req));
  });

  router.put('/projects/:id/issues/:issue_iid', async (req, res) => {
    const user = requireUser(req.ctx);
    const issue = await issueOr404(req);
    requireUpdate(req, issue, ACCESS_LEVELS.reporter);
    const params = parseParams(updateIssueBody, collectParams(req));
    const updated = await noteables.updateIssue(originOf(req), issue, userSummaryOf(user), {
      ...params,
      confidential: confidentialityParam(req, params.confidential, false),
    });
    sendJson(res, 200, await present.issue(updated, req));
  });

  // Merge requests
  router.get('/projects/:id/merge_requests', async (req, res) => {
    const ns = readableNamespace(req.ctx, 'project');
    if (!canReadMergeRequests(req.ctx)) throw new ForbiddenError();
    const query = parseParams(listMergeRequestsQuery, req.query);
    const filter = {
      kind: 'MergeRequest',
      scope: 'projectId',
      parentId: ns.id,
      state: query.state,
      iids: query.iids,
    } as const;
    const list = await readPage(req, (skip, limit) => noteables.list(filter, skip, limit));
    await sendPage(req, res, list, (items) => presentPage(items, req, presentMergeRequest));
  });

  router.post('/projects/:id/merge_requests', async (req, res) => {
    readableNamespace(req.ctx, 'project');
    const user = requireRole(req.ctx, ACCESS_LEVELS.developer);
    const params = parseParams(createMergeRequestBody, collectParams(req));
    const doc = await noteables.createMergeRequest(
      originOf(req),
      req.ctx.namespace!.id,
      userSummaryOf(user),
      params,
    );
    sendJson(res, 201, await present.mergeRequest(doc, req));
  });

  router.get('/projects/:id/merge_requests/:merge_request_iid', async (req, res) => {
    sendJson(res, 200, await present.mergeRequest(await mergeRequestOr404(req), req));
  });

  /**
   * lib/api/merge_requests.rb `merge`: find_project_merge_request (MergeRequestsFinder: an unreadable merge
   * request is not found, 404), then `unauthorized! unless merge_request.can_be_merged_by?(current_user)`
   * (401). Branches are not protected here, so whoever may push (Developer and up) may merge.
   */
  router.put('/projects/:id/merge_requests/:merge_request_iid/merge', async (req, res) => {
    const user = requireUser(req.ctx);
    const mr = await findMergeRequest(req);
    if (!mr || !canReadNoteable(req.ctx, mr)) throw new NotFoundError();
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.developer) {
      throw new HttpError(401, { message: '401 Unauthorized' });
    }
    if (mr.state !== 'opened') throw new HttpError(405, { message: '405 Method Not Allowed' });
    const merged = await noteables.mergeMergeRequest(
      originOf(req),
      mr,
      userSummaryOf(user),
      user.email,
      req.ctx.namespace!.fullPath,
    );
    sendJson(res, 200, await present.mergeRequest(merged, req));
  });

  router.put('/projects/:id/merge_requests/:merge_request_iid', async (req, res) => {
    const user = requireUser(req.ctx);
    const mr = await mergeRequestOr404(req);
    requireUpdate(req, mr, ACCESS_LEVELS.developer);
    const params = parseParams(updateMergeRequestBody, collectParams(req));
    const updated = await noteables.updateMergeRequest(originOf(req), mr, userSummaryOf(user), params);
    sendJson(res, 200, await present.mergeRequest(updated, req));
  });

  // Project snippets
  router.get('/projects/:id/snippets', async (req, res) => {
    const ns = readableNamespace(req.ctx, 'project');
    parseParams(listDiscussionsQuery, req.query);
    // SnippetsFinder: members see every snippet of the project, others the public (and, signed in, internal)
    // ones, authors their own.
    const filter = { kind: 'Snippet', scope: 'projectId', parentId: ns.id } as const;
    const list = await readPage(req, (skip, limit) =>
      noteables.list(filter, skip, limit, listVisibility(req, 'Snippet')),
    );
    await sendPage(req, res, list, (items) => items.map((doc) => presentSnippet(doc, ns)));
  });

  router.post('/projects/:id/snippets', async (req, res) => {
    readableNamespace(req.ctx, 'project');
    const user = requireRole(req.ctx, ACCESS_LEVELS.reporter);
    const raw = collectParams(req);
    const params = parseParams(createSnippetBody, raw);
    requireExactlyOne(raw, ['content', 'files']);
    const file = params.files?.[0];
    const doc = await noteables.createSnippet(originOf(req), req.ctx.namespace!.id, userSummaryOf(user), {
      title: params.title,
      description: params.description,
      visibility: params.visibility,
      file_name: file?.file_path ?? params.file_name,
      content: file?.content ?? params.content,
    });
    sendJson(res, 201, presentSnippet(doc, req.ctx.namespace!));
  });

  router.get('/projects/:id/snippets/:snippet_id', async (req, res) => {
    const ns = readableNamespace(req.ctx, 'project');
    const snippet = await noteables.findSnippet(ns.id, pathId(req, 'snippet_id'));
    // `authorize! :read_snippet, snippet` is answered as the finder would: not found.
    if (!snippet || !canReadNoteable(req.ctx, snippet)) throw new NotFoundError('Snippet');
    sendJson(res, 200, presentSnippet(snippet, ns));
  });

  // Group epics [higher tier]
  router.get('/groups/:id/epics', async (req, res) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireEpicsFeature(req);
    parseParams(listDiscussionsQuery, req.query);
    // EpicsFinder#with_confidentiality_access_check: confidential epics only for Reporter and up.
    const filter = { kind: 'Epic', scope: 'groupId', parentId: ns.id } as const;
    const list = await readPage(req, (skip, limit) =>
      noteables.list(filter, skip, limit, listVisibility(req)),
    );
    await sendPage(req, res, list, (items) => items.map((doc) => presentEpic(doc, ns)));
  });

  router.post('/groups/:id/epics', async (req, res) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireUser(req.ctx);
    requireEpicsFeature(req);
    const user = requireRole(req.ctx, ACCESS_LEVELS.reporter);
    const params = parseParams(createEpicBody, collectParams(req));
    const doc = await noteables.createEpic(originOf(req), ns.id, userSummaryOf(user), params);
    sendJson(res, 201, presentEpic(doc, ns));
  });

  router.get('/groups/:id/epics/:epic_iid', async (req, res) => {
    const ns = readableNamespace(req.ctx, 'group');
    requireEpicsFeature(req);
    const epic = await noteables.findByIid('Epic', 'groupId', ns.id, pathId(req, 'epic_iid'));
    // GitLab's `authorize!(:read_epic, epic)` runs on a nil epic: an unknown iid is 403, not 404; so is a
    // confidential epic the caller may not read.
    if (!epic || !canReadNoteable(req.ctx, epic)) throw new ForbiddenError();
    sendJson(res, 200, presentEpic(epic, ns));
  });

  return router;
}
