import type { Request, Response } from 'express';
import { ACCESS_LEVELS, booleanParam, wantsKeyset, type InternalContext } from '@gl/contracts';
import {
  NotFoundError,
  ParamError,
  UnauthorizedError,
  collectParams,
  isHigherTier,
  mutuallyExclusive,
  projectionCaughtUp,
  readPageRequest,
  sendJson,
  setKeysetPaginationHeaders,
  type ProjectionRevisions,
} from '@gl/service-kit';
import { accessTargetOf, canReadNote, readableNamespace } from '../common/access';
import { readPage, sendPage } from '../common/http';
import type { NamespaceView } from '../common/presenting';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesService } from '../noteables/noteables.service';
import { presentIssue } from '../issues/issues.presenter';
import { presentMergeRequest } from '../merge-requests/merge-requests.presenter';
import { epicFieldsOf } from '../epics/issue-epics';
import type { IssuableLists } from './issuable-lists';
import { viewerOfContext, type IssuablesScope, type ScopeProject } from './issuables.scope';
import type { LabelCopies, LabelDetails } from '../copies/label-copies';

/** Grape's `mutually_exclusive` pairs of the list parameters (lib/api/issues.rb, merge_requests.rb). */
const EXCLUSIVE = [
  mutuallyExclusive('milestone_id', 'milestone'),
  mutuallyExclusive('author_id', 'author_username'),
  mutuallyExclusive('assignee_id', 'assignee_username'),
  mutuallyExclusive('reviewer_id', 'reviewer_username'),
];

/** The list's parameters, parsed by its contract, then Grape's group rules (also inside `not`). */
export function listParams<T extends object>(req: Request, params: () => T): T {
  const parsed = params();
  // `weight` is a sort option of the tiers that have weights only.
  if ('order_by' in parsed && parsed.order_by === 'weight' && !isHigherTier(req.ctx)) {
    throw new ParamError(['order_by does not have a valid value']);
  }
  // `id` orders keyset pages only (list-params.ts keysetListParams); offset pages keep GitLab's values.
  if ('order_by' in parsed && parsed.order_by === 'id' && !wantsKeyset(parsed as { pagination?: unknown })) {
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

/** `authenticate! unless params[:scope] == 'all'`: the instance lists default to created_by_me. */
function requireUserUnlessAll(req: Request, scopeParam: string | undefined): void {
  if (scopeParam !== 'all' && !req.ctx.principal) throw new UnauthorizedError();
}

/**
 * An instance list's parameters (GET /issues, /merge_requests, /issues_statistics): the list's, with
 * `scope` defaulting to created_by_me, which only a signed-in caller may read.
 */
export function instanceListParams<T extends { scope?: string }>(req: Request, params: () => T) {
  const given = listParams(req, params);
  const query = { ...given, scope: given.scope ?? 'created_by_me' };
  requireUserUnlessAll(req, query.scope);
  return query;
}

/** Items of many projects point at their own project; a project list at the resolved one. */
export function namespaceViews(req: Request, projects: ScopeProject[]): (doc: NoteableDoc) => NamespaceView {
  const byId = new Map(
    projects.map((p) => [p.id, { fullPath: p.fullPath, webUrl: `${req.ctx.externalUrl}/${p.fullPath}` }]),
  );
  return (doc) => byId.get(doc.projectId!) ?? { fullPath: '', webUrl: req.ctx.externalUrl };
}

export interface IssuablePagesDeps {
  noteables: NoteablesService;
  lists: IssuableLists;
  scope: IssuablesScope;
  /**
   * Group and instance lists decide from discussions' copy of memberships and visibility: they wait until
   * it has applied the request's identity revisions, so a removal counts on the next request (else 503).
   */
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
  /** The label copies `with_labels_details` shows labels from. */
  labels: Pick<LabelCopies, 'detailsOf'>;
}

/**
 * `with_labels_details`: the labels of a page's items by project and title (each project sees its own
 * labels and its groups'), one read of the copies per project on the page.
 */
async function labelDetailsByProject(
  labels: Pick<LabelCopies, 'detailsOf'>,
  docs: NoteableDoc[],
): Promise<Map<number, Map<string, LabelDetails>>> {
  const titles = new Map<number, Set<string>>();
  for (const doc of docs) {
    const set = titles.get(doc.projectId!) ?? new Set<string>();
    for (const title of doc.labels) set.add(title);
    titles.set(doc.projectId!, set);
  }
  const entries = await Promise.all(
    [...titles].map(
      async ([projectId, set]) => [projectId, await labels.detailsOf(projectId, [...set])] as const,
    ),
  );
  return new Map(entries);
}

/**
 * Pages of issues and merge requests at every scope (lib/api/issues.rb, lib/api/merge_requests.rb): one
 * finder, one entity, GitLab's pagination headers.
 */
export function createIssuablePages(deps: IssuablePagesDeps) {
  const { noteables, lists, scope, revisions } = deps;

  async function present(
    req: Request,
    docs: NoteableDoc[],
    as: typeof presentIssue | typeof presentMergeRequest,
    viewOf: (doc: NoteableDoc) => NamespaceView,
    levelOf: (doc: NoteableDoc) => number,
  ) {
    // The caller's context at each project's level, built once per level rather than once per item.
    const contexts = new Map<number, InternalContext>();
    const contextAt = (level: number): InternalContext => {
      let ctx = contexts.get(level);
      if (!ctx) {
        ctx = { ...req.ctx, namespace: req.ctx.namespace && { ...req.ctx.namespace, accessLevel: level } };
        contexts.set(level, ctx);
      }
      return ctx;
    };
    const extras = await noteables.pageExtras(docs, (doc) =>
      canReadNote(contextAt(levelOf(doc)), accessTargetOf(doc), { internal: true }),
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
    const details = booleanParam.safeParse(req.query.with_labels_details).data
      ? await labelDetailsByProject(deps.labels, docs)
      : null;
    return docs.map((doc) => {
      const labelDetails = details?.get(doc.projectId!);
      const own = extras.get(doc._id)!;
      const entity = as(doc, viewOf(doc), {
        milestone: own.milestone,
        userNotesCount: own.userNotesCount,
        votes: own.votes,
        users,
        weights,
        labelDetails,
      });
      if (!epics) return entity;
      const found = epics.get(doc._id);
      const readable = found && (!found.epic.confidential || admin || levelOf(doc) >= ACCESS_LEVELS.reporter);
      // Extended, not spread (noteables/issuable.presenter.ts issuableHeading says why).
      return Object.assign(
        entity,
        epicFieldsOf(readable ? found.epic : null, found?.groupPath ?? null, req.ctx.externalUrl),
      );
    });
  }

  /** Sends one page of a list over these projects. */
  async function sendList(
    req: Request,
    res: Response,
    kind: 'Issue' | 'MergeRequest',
    query: Parameters<IssuableLists['page']>[1],
    projects: ScopeProject[],
    ownView?: NamespaceView,
  ) {
    const viewer = viewerOfContext(req.ctx);
    const levels = new Map(projects.map((p) => [p.id, p.level]));
    const viewOf = ownView ? () => ownView : namespaceViews(req, projects);
    const as = kind === 'Issue' ? presentIssue : presentMergeRequest;
    const levelOf = (doc: NoteableDoc) => levels.get(doc.projectId!) ?? 0;
    if (wantsKeyset(query)) {
      const { perPage } = readPageRequest(req.query);
      const page = await lists.keysetPage(kind, query, projects, viewer, perPage);
      const body = await present(req, page.items, as, viewOf, levelOf);
      setKeysetPaginationHeaders(req, res, page.nextCursor);
      sendJson(res, 200, body);
      return;
    }
    const list = await readPage(req, (skip, limit) =>
      lists.page(kind, query, projects, viewer, { skip, limit }),
    );
    await sendPage(req, res, list, (items) => present(req, items, as, viewOf, levelOf));
  }

  /** Group routes: the group as the gateway resolved it, then its readable projects. */
  async function groupProjects(req: Request, res: Response) {
    const group = readableNamespace(req.ctx, 'group');
    await projectionCaughtUp(revisions, req, res);
    return scope.ofGroup(req.ctx, group);
  }

  async function instanceProjects(req: Request, res: Response) {
    await projectionCaughtUp(revisions, req, res);
    return scope.ofInstance(req.ctx);
  }

  /**
   * milestone_issuables_for: the group's milestone (`parent.milestones.find` → "404 Not found"), then the
   * finder over the group and its subgroups with its title; merge requests only for who reads them.
   */
  async function sendMilestoneList(
    req: Request,
    res: Response,
    kind: 'Issue' | 'MergeRequest',
    milestoneId: number,
  ) {
    const projects = await groupProjects(req, res);
    const milestone = await noteables.milestone(milestoneId);
    if (!milestone) throw new NotFoundError();
    const query = { milestone: milestone.title } as Parameters<IssuableLists['page']>[1];
    await sendList(req, res, kind, query, projects);
  }

  /**
   * milestone_issuables_for on a project: `user_project.milestones.find` (the project's own milestones,
   * else "404 Not found"), then the finder over the project with its title.
   */
  async function sendProjectMilestoneList(
    req: Request,
    res: Response,
    kind: 'Issue' | 'MergeRequest',
    milestoneId: number,
  ) {
    const ns = readableNamespace(req.ctx, 'project');
    const milestone = await noteables.milestone(milestoneId);
    if (!milestone || milestone.projectId !== ns.id) throw new NotFoundError();
    const query = { milestone: milestone.title } as Parameters<IssuableLists['page']>[1];
    const view = { fullPath: ns.fullPath, webUrl: `${req.ctx.externalUrl}/${ns.fullPath}` };
    await sendList(req, res, kind, query, scope.ofProject(req.ctx, ns), view);
  }

  return { present, sendList, groupProjects, instanceProjects, sendMilestoneList, sendProjectMilestoneList };
}
