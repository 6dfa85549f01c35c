import { Router, type Request, type Response } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, type IssueEntity, type IssueLinkEntity } from '@gl/contracts';
import {
  NotFoundError,
  isHigherTier,
  projectionCaughtUp,
  requestOrigin,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { readableNamespace, userSummaryOf } from '../common/access';
import { SERVICE_PRODUCER } from '../common/origin';
import { isoNow } from '../common/presenting';
import type { NoteableDoc } from '../noteables/noteables.service';
import { presentIssue } from '../issues/issues.presenter';
import { readableIssue } from '../issues/issue-access';
import { issueReader } from '../epics/epic-issue-access';
import { createIssuablePages, namespaceViews, type IssuablePagesDeps } from '../lists/issuable-pages';
import type { ScopeProject } from '../lists/issuables.scope';
import {
  idOfString,
  linkTypeSeenFrom,
  type IssueLinkDoc,
  type IssueLinksService,
  type PlacedIssue,
} from './issue-links.service';

/** The two issues of a link, found as lib/api/issue_links.rb finds them, and the projects they are in. */
interface LinkEnds {
  source: NoteableDoc;
  target: NoteableDoc;
  projects: ScopeProject[];
}

/**
 * lib/api/issue_links.rb: an issue's links to other issues of any project. Every route authenticates first
 * and finds the issue with find_project_issue (404 when the caller cannot read it). Links are not paginated.
 */
export function createIssueLinksRouter(deps: IssuablePagesDeps & { issueLinks: IssueLinksService }): Router {
  const { noteables, scope, revisions, issueLinks } = deps;
  const pages = createIssuablePages(deps);
  const router = Router();

  /**
   * The route's project (as the gateway signed it) and these other projects as the caller reads them, from
   * discussions' copy of projects and memberships, once it has applied the request's identity revisions.
   */
  async function projectsOf(req: Request, res: Response, projectIds: number[]): Promise<ScopeProject[]> {
    const ns = readableNamespace(req.ctx, 'project');
    const own = scope.ofProject(req.ctx, ns);
    const others = [...new Set(projectIds)].filter((id) => id !== ns.id);
    if (others.length === 0) return own;
    await projectionCaughtUp(revisions, req, res);
    return [...own, ...(await scope.ofProjectIds(req.ctx, others))];
  }

  /** IssuePolicy's admin_issue_link: read the issue and be a member (Guest and up) of its project, or admin. */
  function adminsLinksOf(req: Request, projects: ScopeProject[]) {
    const reads = issueReader(req.ctx, projects);
    const levels = new Map(projects.map((p) => [p.id, p.level]));
    return (doc: NoteableDoc) => reads(doc) && (levels.get(doc.projectId!) ?? 0) >= ACCESS_LEVELS.guest;
  }

  async function presentIssues(req: Request, docs: NoteableDoc[], projects: ScopeProject[]) {
    const levels = new Map(projects.map((p) => [p.id, p.level]));
    const shown = await pages.present(
      req,
      docs,
      presentIssue,
      namespaceViews(req, projects),
      (doc) => levels.get(doc.projectId!) ?? 0,
    );
    return shown as IssueEntity[];
  }

  /** lib/api/entities/issue_link.rb: the link as stored. */
  async function presentLink(req: Request, link: IssueLinkDoc, ends: LinkEnds): Promise<IssueLinkEntity> {
    const [source, target] = await presentIssues(req, [ends.source, ends.target], ends.projects);
    return { source_issue: source!, target_issue: target!, link_type: link.linkType };
  }

  /**
   * The link's issues, and `find_project_issue(issue_link.target.iid, issue_link.target.project_id)`: its
   * target must be readable (404 "Project Not Found" for its project, else "404 Not found"), and so must its
   * source. A link whose issue was deleted is gone with it (GitLab's foreign keys cascade).
   */
  async function endsOf(
    req: Request,
    res: Response,
    issue: NoteableDoc,
    link: IssueLinkDoc,
  ): Promise<LinkEnds> {
    const other = link.sourceId === issue._id ? link.targetId : link.sourceId;
    const found = await noteables.findIssueById(other);
    if (!found || found.kind !== 'Issue') throw new NotFoundError();
    const [source, target] = link.sourceId === issue._id ? [issue, found] : [found, issue];
    const projects = await projectsOf(req, res, [found.projectId!]);
    if (!projects.some((p) => p.id === target.projectId)) throw new NotFoundError('Project');
    const reads = issueReader(req.ctx, projects);
    if (!reads(target)) throw new NotFoundError();
    // Stricter than GitLab, which presents the link's source unchecked: an issue the caller may not read
    // (confidential, or in a project hidden from them) is never shown, as the list leaves it out.
    if (!reads(source)) throw new NotFoundError();
    return { source, target, projects };
  }

  const placed = (doc: NoteableDoc, projects: ScopeProject[]): PlacedIssue => ({
    doc,
    fullPath: projects.find((p) => p.id === doc.projectId)?.fullPath ?? '',
  });

  /** `find_project!(target_project_id)`: an id or a full path, of a project the caller reads, else 404. */
  async function targetProjectOf(req: Request, res: Response, given: string): Promise<ScopeProject> {
    const ns = readableNamespace(req.ctx, 'project');
    const isOwnPath = given.toLowerCase() === ns.fullPath.toLowerCase();
    const id = /^\d+$/.test(given)
      ? Number(given)
      : isOwnPath
        ? ns.id
        : await issueLinks.projectIdOfPath(given);
    if (id === null) throw new NotFoundError('Project');
    const found = (await projectsOf(req, res, [id])).find((p) => p.id === id);
    if (!found) throw new NotFoundError('Project');
    return found;
  }

  route(router, DISCUSSIONS_API.listProjectIssueLinks, async ({ req, res, params }) => {
    const issue = await readableIssue(noteables, req, () => params().issue_iid);
    const links = await issueLinks.linksOf(issue);
    const others = await Promise.all(
      links.map((l) => noteables.findIssueById(l.sourceId === issue._id ? l.targetId : l.sourceId)),
    );
    const projects = await projectsOf(
      req,
      res,
      others.flatMap((o) => (o?.projectId == null ? [] : [o.projectId])),
    );
    // Issue#related_issues: Ability.issues_readable_by_user leaves out what the caller may not read.
    const reads = issueReader(req.ctx, projects);
    const shown = links.flatMap((link, i) => {
      const other = others[i];
      return other && other.kind === 'Issue' && reads(other) ? [{ link, other }] : [];
    });
    const entities = await presentIssues(
      req,
      shown.map((s) => s.other),
      projects,
    );
    sendJson(
      res,
      200,
      entities.map((entity, i) => {
        const { link, other } = shown[i]!;
        return {
          ...entity,
          issue_link_id: link._id,
          link_type: linkTypeSeenFrom(link, other._id),
          link_created_at: isoNow(link.createdAt),
          link_updated_at: isoNow(link.updatedAt),
        };
      }),
    );
  });

  route(router, DISCUSSIONS_API.getProjectIssueLink, async ({ req, res, params }) => {
    const { issue_iid, issue_link_id } = params();
    const issue = await readableIssue(noteables, req, () => issue_iid);
    const link = await issueLinks.find(issue, issue_link_id);
    sendJson(res, 200, await presentLink(req, link, await endsOf(req, res, issue, link)));
  });

  route(router, DISCUSSIONS_API.createProjectIssueLink, async ({ req, res, ctx, params }) => {
    const user = requireUser(ctx);
    const ns = readableNamespace(ctx, 'project');
    const given = params();
    const source = await readableIssue(noteables, req, () => given.issue_iid);
    // find_project_issue(target_issue_iid, target_project_id): IssuesFinder in a project the caller reads.
    const project = await targetProjectOf(req, res, given.target_project_id);
    const target = await noteables.findByIid(
      'Issue',
      'projectId',
      project.id,
      idOfString(given.target_issue_iid),
    );
    const projects = [...scope.ofProject(ctx, ns), ...(project.id === ns.id ? [] : [project])];
    if (!target || !issueReader(ctx, projects)(target)) throw new NotFoundError();
    const created = await issueLinks.create(
      requestOrigin(SERVICE_PRODUCER, ctx),
      userSummaryOf(user),
      { source: placed(source, projects), target: placed(target, projects) },
      given.link_type ?? 'relates_to',
      { adminsTarget: adminsLinksOf(req, projects)(target), blockedIssues: isHigherTier(ctx) },
    );
    const ends = { source: created.source.doc, target: created.target.doc, projects };
    sendJson(res, 201, await presentLink(req, created.link, ends));
  });

  route(router, DISCUSSIONS_API.deleteProjectIssueLink, async ({ req, res, ctx, params }) => {
    const user = requireUser(ctx);
    const { issue_iid, issue_link_id } = params();
    const issue = await readableIssue(noteables, req, () => issue_iid);
    const link = await issueLinks.find(issue, issue_link_id);
    const ends = await endsOf(req, res, issue, link);
    const entity = await presentLink(req, link, ends);
    const admins = adminsLinksOf(req, ends.projects);
    await issueLinks.destroy(
      requestOrigin(SERVICE_PRODUCER, ctx),
      userSummaryOf(user),
      link,
      { source: placed(ends.source, ends.projects), target: placed(ends.target, ends.projects) },
      admins(ends.source) && admins(ends.target),
    );
    sendJson(res, 200, entity);
  });

  return router;
}
