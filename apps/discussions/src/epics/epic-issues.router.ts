import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import { ForbiddenError, HttpError, NotFoundError, requireUser, route, sendJson } from '@gl/service-kit';
import { readPage, sendPage } from '../common/http';
import type { NoteableDoc } from '../noteables/noteables.service';
import { presentIssue } from '../issues/issues.presenter';
import type { ScopeProject } from '../lists/issuables.scope';
import { createIssuablePages, namespaceViews, type IssuablePagesDeps } from '../lists/issuable-pages';
import { presentEpic } from './epics.presenter';
import { epicFor } from './epic-access';
import { issueReader, relatableIssue, requireIssueRelation, withIssueProjects } from './epic-issue-access';

/** The issues of an epic (ee/lib/api/epic_issues.rb) [higher tier]. */
export function createEpicIssuesRouter(deps: IssuablePagesDeps): Router {
  const { noteables, scope } = deps;
  const { present, groupProjects } = createIssuablePages(deps);
  const router = Router();

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
    const { epic_iid } = params();
    const epic = await epicFor(noteables, req, () => epic_iid, ACCESS_LEVELS.none);
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

  route(router, DISCUSSIONS_API.assignGroupEpicIssue, async ({ req, res, params }) => {
    requireUser(req.ctx);
    // authorize_can_admin_epic_link!: admin_epic_relation (Reporter and up).
    const epic = await epicFor(noteables, req, () => params().epic_iid, ACCESS_LEVELS.reporter);
    const found = await noteables.findIssueById(params().issue_id);
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

  route(router, DISCUSSIONS_API.removeGroupEpicIssue, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const epic = await epicFor(noteables, req, () => params().epic_iid, ACCESS_LEVELS.reporter);
    const link = await noteables.epicIssues.find(params().epic_issue_id);
    if (!link) throw new NotFoundError();
    if (link.epicId !== epic._id) throw new ForbiddenError();
    const issue = await noteables.findIssueById(link.issueId);
    const projects = await withIssueProjects(scope, req.ctx, await groupProjects(req, res), [issue]);
    // authorize_can_assign_to_epic!(link.issue): admin_issue_relation on the issue, wherever it is.
    if (issue) requireIssueRelation(req.ctx, projects, issue, 'forbidden');
    await noteables.epicIssues.remove(link._id);
    sendJson(res, 200, issue ? await presentLink(req, epic, issue, link, projects) : { id: link._id });
  });

  return router;
}
