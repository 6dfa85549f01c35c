import type { Request, Router } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import {
  ForbiddenError,
  NotFoundError,
  accessLevelOf,
  requireUser,
  route,
  sendJson,
  type PageRequest,
} from '@gl/service-kit';
import {
  accessTargetOf,
  canReadMergeRequests,
  canReadNote,
  canReadNoteable,
  readableNamespace,
} from './discussions.access';
import { readPage, sendPage } from './discussions.http';
import type { NoteDoc, NoteableDoc } from './discussions.models';
import { presentMergeRequest } from './discussions.presenters';
import type { NoteablesService } from './noteables.service';
import { pathIdOf } from './path-ids';

const issueIidOf = (req: Request): number => pathIdOf(req, 'issue_iid');

/** Kaminari.paginate_array: a page of a list computed whole. */
function pageOf<T>(all: T[]) {
  return (skip: number, limit: number) =>
    Promise.resolve({ items: all.slice(skip, skip + limit), total: all.length });
}

/** lib/api/issues.rb: participants, closed_by, related_merge_requests and DELETE of one issue. */
export function routeIssueRelations(router: Router, noteables: NoteablesService): void {
  async function issueOr404(req: Request): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'project');
    const issue = await noteables.findByIid('Issue', 'projectId', ns.id, issueIidOf(req));
    // find_project_issue (IssuesFinder): a confidential issue the caller cannot read is not found.
    if (!issue || !canReadNoteable(req.ctx, issue)) throw new NotFoundError();
    return issue;
  }

  const readsNote = (req: Request, issue: NoteableDoc) => (note: NoteDoc) =>
    canReadNote(req.ctx, accessTargetOf(issue), note);

  /** Entities::MergeRequest(Basic) of the merge requests the caller may read (`can_read?` in the service). */
  async function sendMergeRequests(req: Request, res: Parameters<typeof sendJson>[0], all: NoteableDoc[]) {
    const readable = canReadMergeRequests(req.ctx) ? all.filter((mr) => canReadNoteable(req.ctx, mr)) : [];
    const list: { page: PageRequest; items: NoteableDoc[]; total: number } = await readPage(
      req,
      pageOf(readable),
    );
    await sendPage(req, res, list, async (items) => {
      const extras = await noteables.pageExtras(items, (doc) =>
        canReadNote(req.ctx, accessTargetOf(doc), { internal: true }),
      );
      return items.map((doc) => presentMergeRequest(doc, req.ctx.namespace!, extras.get(doc._id)!));
    });
  }

  route(router, DISCUSSIONS_API.listProjectIssueParticipants, async ({ req, res, params }) => {
    params();
    const issue = await issueOr404(req);
    const base = req.ctx.externalUrl.replace(/\/+$/, '');
    const users = await noteables.participants(issue, readsNote(req, issue), (name) => `${base}/${name}`);
    await sendPage(req, res, await readPage(req, pageOf(users)), (items) => items);
  });

  /**
   * lib/api/merge_requests.rb `participants`: find_merge_request_with_access (MergeRequestsFinder → 404,
   * then `authorize! :read_merge_request` → 403).
   */
  route(router, DISCUSSIONS_API.listProjectMergeRequestParticipants, async ({ req, res, params }) => {
    params();
    const ns = readableNamespace(req.ctx, 'project');
    const iid = pathIdOf(req, 'merge_request_iid');
    const mr = await noteables.findByIid('MergeRequest', 'projectId', ns.id, iid);
    if (!mr) throw new NotFoundError();
    if (!canReadNoteable(req.ctx, mr)) throw new ForbiddenError();
    const base = req.ctx.externalUrl.replace(/\/+$/, '');
    const users = await noteables.participants(mr, readsNote(req, mr), (name) => `${base}/${name}`);
    await sendPage(req, res, await readPage(req, pageOf(users)), (items) => items);
  });

  route(router, DISCUSSIONS_API.listProjectIssueClosedBy, async ({ req, res, params }) => {
    params();
    const issue = await issueOr404(req);
    await sendMergeRequests(
      req,
      res,
      await noteables.closingMergeRequests(issue, req.ctx.namespace!.fullPath),
    );
  });

  route(router, DISCUSSIONS_API.listProjectIssueRelatedMergeRequests, async ({ req, res, params }) => {
    params();
    const issue = await issueOr404(req);
    const related = await noteables.relatedMergeRequests(
      issue,
      req.ctx.namespace!.fullPath,
      readsNote(req, issue),
    );
    await sendMergeRequests(req, res, related);
  });

  /** `authorize!(:destroy_issue, issue)`: ProjectPolicy gives it to the Owner (and admins) → else 403. */
  route(router, DISCUSSIONS_API.deleteProjectIssue, async ({ req, res }) => {
    requireUser(req.ctx);
    const issue = await issueOr404(req);
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.owner) throw new ForbiddenError();
    await noteables.destroyIssue(issue);
    res.status(204).end();
  });
}
