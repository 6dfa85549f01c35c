import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  accessLevelOf,
  requireUser,
  UnauthorizedError,
  collectParams,
  isHigherTier,
  mutuallyExclusive,
  projectionCaughtUp,
  route,
  sendJson,
  type ProjectionRevisions,
} from '@gl/service-kit';
import {
  accessTargetOf,
  canReadMergeRequests,
  canReadNote,
  canReadNoteable,
  readableNamespace,
} from './discussions.access';
import { presentEpic, presentIssue, presentMergeRequest, type NamespaceView } from './discussions.presenters';
import type { NoteableDoc } from './discussions.models';
import { readPage, sendPage } from './discussions.http';
import type { IssuableLists } from './issuable-lists';
import { viewerOfContext, type IssuablesScope, type ScopeProject } from './issuables.scope';
import type { NoteablesService } from './noteables.service';
import { pathIdOf } from './path-ids';
import { epicFieldsOf } from './issue-epics';
import { issueReader, relatableIssue, requireIssueRelation, withIssueProjects } from './epic-issue-access';

/** Grape's `mutually_exclusive` pairs of the list parameters (lib/api/issues.rb, merge_requests.rb). */
const EXCLUSIVE = [
  mutuallyExclusive('milestone_id', 'milestone'),
  mutuallyExclusive('author_id', 'author_username'),
  mutuallyExclusive('assignee_id', 'assignee_username'),
  mutuallyExclusive('reviewer_id', 'reviewer_username'),
];

/** The list's parameters, parsed by its contract, then Grape's group rules (also inside `not`). */
function listParams<T extends object>(req: Request, params: () => T): T {
  const parsed = params();
  // `weight` is a sort option of the tiers that have weights only.
  if ('order_by' in parsed && parsed.order_by === 'weight' && !isHigherTier(req.ctx)) {
    throw new ParamError(['order_by does not have a valid value']);
  }
  const raw = collectParams(req);
  const not = raw.not && typeof raw.not === 'object' ? (raw.not as Record<string, unknown>) : {};
  const broken = [...EXCLUSIVE.map((rule) => rule(raw)), ...EXCLUSIVE.map((rule) => rule(not))].filter(
    (message): message is string => message !== null,
  );
  if (broken.length > 0) throw new ParamError(broken);
  return parsed;
}

export interface IssuablesRouterDeps {
  noteables: NoteablesService;
  lists: IssuableLists;
  scope: IssuablesScope;
  /**
   * Group and instance lists decide from discussions' copy of memberships and visibility: they wait until
   * it has applied the request's identity revisions, so a removal counts on the next request (else 503).
   */
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
}

/**
 * Issue and merge request lists at every scope (lib/api/issues.rb, lib/api/merge_requests.rb) and issue
 * statistics (lib/api/helpers/issues_helpers.rb `issues_statistics`): one finder, one entity, GitLab's
 * pagination headers.
 */
export function createIssuablesRouter(deps: IssuablesRouterDeps): Router {
  const { noteables, lists, scope, revisions } = deps;
  const router = Router();

  /** `authenticate! unless params[:scope] == 'all'`: the instance lists default to created_by_me. */
  function requireUserUnlessAll(req: Request, scopeParam: string | undefined): void {
    if (scopeParam !== 'all' && !req.ctx.principal) throw new UnauthorizedError();
  }

  /** Items of many projects point at their own project; a project list at the resolved one. */
  function namespaceViews(req: Request, projects: ScopeProject[]): (doc: NoteableDoc) => NamespaceView {
    const byId = new Map(
      projects.map((p) => [p.id, { fullPath: p.fullPath, webUrl: `${req.ctx.externalUrl}/${p.fullPath}` }]),
    );
    return (doc) => byId.get(doc.projectId!) ?? { fullPath: '', webUrl: req.ctx.externalUrl };
  }

  async function present(
    req: Request,
    docs: NoteableDoc[],
    as: typeof presentIssue | typeof presentMergeRequest,
    viewOf: (doc: NoteableDoc) => NamespaceView,
    levelOf: (doc: NoteableDoc) => number,
  ) {
    const extras = await noteables.pageExtras(docs, (doc) =>
      canReadNote(
        { ...req.ctx, namespace: req.ctx.namespace && { ...req.ctx.namespace, accessLevel: levelOf(doc) } },
        accessTargetOf(doc),
        { internal: true },
      ),
    );
    // Reviewers as users (one read for the page, none without reviewers); weights where the tier has them.
    const users = await noteables.subscriptions.summaries(
      docs.flatMap((doc) => doc.reviewerIds ?? []),
      req.ctx.externalUrl,
    );
    const weights = isHigherTier(req.ctx);
    // EE::API::Entities::Issue: each issue's epic, where epics exist and the caller reads it.
    const epics = as === presentIssue && weights ? await noteables.issueEpics.ofIssues(docs) : null;
    const admin = viewerOfContext(req.ctx).isAdmin;
    return docs.map((doc) => {
      const entity = as(doc, viewOf(doc), { ...extras.get(doc._id)!, users, weights });
      if (!epics) return entity;
      const found = epics.get(doc._id);
      const readable = found && (!found.epic.confidential || admin || levelOf(doc) >= ACCESS_LEVELS.reporter);
      return {
        ...entity,
        ...epicFieldsOf(readable ? found.epic : null, found?.groupPath ?? null, req.ctx.externalUrl),
      };
    });
  }

  /** Sends one page of a list over these projects. */
  async function sendList(
    req: Request,
    res: Parameters<typeof sendPage>[1],
    kind: 'Issue' | 'MergeRequest',
    query: Parameters<IssuableLists['page']>[1],
    projects: ScopeProject[],
    ownView?: NamespaceView,
  ) {
    const viewer = viewerOfContext(req.ctx);
    const list = await readPage(req, (skip, limit) =>
      lists.page(kind, query, projects, viewer, { skip, limit }),
    );
    const levels = new Map(projects.map((p) => [p.id, p.level]));
    const viewOf = ownView ? () => ownView : namespaceViews(req, projects);
    const as = kind === 'Issue' ? presentIssue : presentMergeRequest;
    await sendPage(req, res, list, (items) =>
      present(req, items, as, viewOf, (doc) => levels.get(doc.projectId!) ?? 0),
    );
  }

  /** Group routes: the group as the gateway resolved it, then its readable projects. */
  async function groupProjects(req: Request, res: Parameters<typeof sendPage>[1]) {
    const group = readableNamespace(req.ctx, 'group');
    await projectionCaughtUp(revisions, req, res);
    return scope.ofGroup(req.ctx, group);
  }

  async function instanceProjects(req: Request, res: Parameters<typeof sendPage>[1]) {
    await projectionCaughtUp(revisions, req, res);
    return scope.ofInstance(req.ctx);
  }

  // Issues
  route(router, DISCUSSIONS_API.listProjectIssues, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    const query = listParams(req, params);
    await sendList(req, res, 'Issue', query, scope.ofProject(req.ctx, ns), ns);
  });

  route(router, DISCUSSIONS_API.listGroupIssues, async ({ req, res, params }) => {
    const query = listParams(req, params);
    const projects = await groupProjects(req, res);
    await sendList(req, res, 'Issue', query, projects);
  });

  route(router, DISCUSSIONS_API.listIssues, async ({ req, res, params }) => {
    const given = listParams(req, params);
    const query = { ...given, scope: given.scope ?? 'created_by_me' };
    requireUserUnlessAll(req, query.scope);
    await sendList(req, res, 'Issue', query, await instanceProjects(req, res));
  });

  // Issue statistics
  route(router, DISCUSSIONS_API.getProjectIssuesStatistics, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    const query = listParams(req, params);
    const body = await lists.statistics(query, scope.ofProject(req.ctx, ns), viewerOfContext(req.ctx));
    sendJson(res, 200, body);
  });

  route(router, DISCUSSIONS_API.getGroupIssuesStatistics, async ({ req, res, params }) => {
    const query = listParams(req, params);
    const projects = await groupProjects(req, res);
    sendJson(res, 200, await lists.statistics(query, projects, viewerOfContext(req.ctx)));
  });

  route(router, DISCUSSIONS_API.getIssuesStatistics, async ({ req, res, params }) => {
    const given = listParams(req, params);
    const query = { ...given, scope: given.scope ?? 'created_by_me' };
    requireUserUnlessAll(req, query.scope);
    const projects = await instanceProjects(req, res);
    sendJson(res, 200, await lists.statistics(query, projects, viewerOfContext(req.ctx)));
  });

  // Merge requests
  route(router, DISCUSSIONS_API.listProjectMergeRequests, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    // `authorize! :read_merge_request, user_project` → 403.
    if (!canReadMergeRequests(req.ctx)) throw new ForbiddenError();
    const query = listParams(req, params);
    await sendList(req, res, 'MergeRequest', query, scope.ofProject(req.ctx, ns), ns);
  });

  route(router, DISCUSSIONS_API.listGroupMergeRequests, async ({ req, res, params }) => {
    const query = listParams(req, params);
    const projects = await groupProjects(req, res);
    await sendList(req, res, 'MergeRequest', query, projects);
  });

  route(router, DISCUSSIONS_API.listMergeRequests, async ({ req, res, params }) => {
    const given = listParams(req, params);
    const query = { ...given, scope: given.scope ?? 'created_by_me' };
    requireUserUnlessAll(req, query.scope);
    await sendList(req, res, 'MergeRequest', query, await instanceProjects(req, res));
  });

  /**
   * milestone_issuables_for: the group's milestone (`parent.milestones.find` → "404 Not found"), then the
   * finder over the group and its subgroups with its title; merge requests only for who reads them.
   */
  async function milestoneList(
    req: Request,
    res: Parameters<typeof sendPage>[1],
    kind: 'Issue' | 'MergeRequest',
  ) {
    const projects = await groupProjects(req, res);
    const milestone = await noteables.milestone(pathIdOf(req, 'milestone_id'));
    if (!milestone) throw new NotFoundError();
    const query = { milestone: milestone.title } as Parameters<IssuableLists['page']>[1];
    await sendList(req, res, kind, query, projects);
  }

  // Epic issues (ee/lib/api/epic_issues.rb) [higher tier]
  /** The epic as `authorize!(ability, epic)` sees it: unknown or unreadable → 403, as is a free tier. */
  async function epicFor(req: Request, minimum: number): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'group');
    if (!isHigherTier(req.ctx)) throw new ForbiddenError();
    const epic = await noteables.findByIid('Epic', 'groupId', ns.id, pathIdOf(req, 'epic_iid'));
    if (!epic || !canReadNoteable(req.ctx, epic) || accessLevelOf(req.ctx) < minimum) {
      throw new ForbiddenError();
    }
    return epic;
  }

  async function presentLink(
    req: Request,
    epic: NoteableDoc,
    issue: NoteableDoc,
    link: { _id: number; relativePosition: number },
    projects: ScopeProject[],
  ) {
    const [item] = await present(
      req,
      [issue],
      presentIssue,
      namespaceViews(req, projects),
      (doc) => projects.find((p) => p.id === doc.projectId)?.level ?? 0,
    );
    return {
      id: link._id,
      relative_position: link.relativePosition,
      epic: presentEpic(epic, req.ctx.namespace!),
      issue: item,
    };
  }

  route(router, DISCUSSIONS_API.listGroupEpicIssues, async ({ req, res, params }) => {
    params();
    const epic = await epicFor(req, ACCESS_LEVELS.none);
    const links = await noteables.epicIssues.ofEpic(epic._id);
    const issues = await Promise.all(links.map((l) => noteables.findIssueById(l.issueId)));
    const projects = await withIssueProjects(scope, req.ctx, await groupProjects(req, res), issues);
    const readable = issueReader(req.ctx, projects);
    const items = links.flatMap((link, i) => {
      const issue = issues[i];
      return issue && issue.kind === 'Issue' && readable(issue) ? [{ link, issue }] : [];
    });
    const list = await readPage(req, (skip, limit) =>
      Promise.resolve({ items: items.slice(skip, skip + limit), total: items.length }),
    );
    const levels = new Map(projects.map((p) => [p.id, p.level]));
    await sendPage(req, res, list, async (page) => {
      const shown = await present(
        req,
        page.map((p) => p.issue),
        presentIssue,
        namespaceViews(req, projects),
        (doc) => levels.get(doc.projectId!) ?? 0,
      );
      return shown.map((entity, i) => ({
        ...entity,
        epic_issue_id: page[i]!.link._id,
        relative_position: page[i]!.link.relativePosition,
      }));
    });
  });

  route(router, DISCUSSIONS_API.assignGroupEpicIssue, async ({ req, res }) => {
    requireUser(req.ctx);
    // authorize_can_admin_epic_link!: admin_epic_relation (Reporter and up).
    const epic = await epicFor(req, ACCESS_LEVELS.reporter);
    const found = await noteables.findIssueById(pathIdOf(req, 'issue_id'));
    const relatable = { scope, epicIssues: noteables.epicIssues };
    // The issue may be in any project the caller relates issues of, inside the epic's group or not.
    const { issue, projects } = await relatableIssue(
      relatable,
      req.ctx,
      epic,
      found,
      await groupProjects(req, res),
    );
    const link = await noteables.epicIssues.assign(epic._id, issue._id);
    if (link === 'already') throw new HttpError(409, { message: 'Issue(s) already assigned' });
    sendJson(res, 201, await presentLink(req, epic, issue, link, projects));
  });

  route(router, DISCUSSIONS_API.removeGroupEpicIssue, async ({ req, res }) => {
    requireUser(req.ctx);
    const epic = await epicFor(req, ACCESS_LEVELS.reporter);
    const link = await noteables.epicIssues.find(pathIdOf(req, 'epic_issue_id'));
    if (!link) throw new NotFoundError();
    if (link.epicId !== epic._id) throw new ForbiddenError();
    const issue = await noteables.findIssueById(link.issueId);
    const projects = await withIssueProjects(scope, req.ctx, await groupProjects(req, res), [issue]);
    // authorize_can_assign_to_epic!(link.issue): admin_issue_relation on the issue, wherever it is.
    if (issue) requireIssueRelation(req.ctx, projects, issue, 'forbidden');
    await noteables.epicIssues.remove(link._id);
    sendJson(res, 200, issue ? await presentLink(req, epic, issue, link, projects) : { id: link._id });
  });

  route(router, DISCUSSIONS_API.listGroupMilestoneIssues, async ({ req, res, params }) => {
    params();
    await milestoneList(req, res, 'Issue');
  });

  route(router, DISCUSSIONS_API.listGroupMilestoneMergeRequests, async ({ req, res, params }) => {
    params();
    await milestoneList(req, res, 'MergeRequest');
  });

  return router;
}
