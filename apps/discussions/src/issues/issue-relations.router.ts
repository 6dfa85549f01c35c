import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import { ForbiddenError, accessLevelOf, requireUser, route, sendJson } from '@gl/service-kit';
import { accessTargetOf, canReadMergeRequests, canReadNote, canReadNoteable } from '../common/access';
import { pageOf, readPage, sendPage } from '../common/http';
import type { NoteDoc } from '../notes/notes.service';
import type { NoteableDoc, NoteablesService } from '../noteables/noteables.service';
import { presentMergeRequest } from '../merge-requests/merge-requests.presenter';
import { readableIssue } from './issue-access';

/** lib/api/issues.rb: participants, closed_by, related_merge_requests and DELETE of one issue. */
export function createIssueRelationsRouter(noteables: NoteablesService): Router {
  const router = Router();

  const readsNote = (req: Request, issue: NoteableDoc) => (note: NoteDoc) =>
    canReadNote(req.ctx, accessTargetOf(issue), note);

  /** Entities::MergeRequest(Basic) of the merge requests the caller may read (`can_read?` in the service). */
  async function sendMergeRequests(req: Request, res: Parameters<typeof sendJson>[0], all: NoteableDoc[]) {
    const readable = canReadMergeRequests(req.ctx) ? all.filter((mr) => canReadNoteable(req.ctx, mr)) : [];
    const list = await readPage(req, pageOf(readable));
    await sendPage(req, res, list, async (items) => {
      const extras = await noteables.pageExtras(items, (doc) =>
        canReadNote(req.ctx, accessTargetOf(doc), { internal: true }),
      );
      return items.map((doc) => presentMergeRequest(doc, req.ctx.namespace!, extras.get(doc._id)!));
    });
  }

  route(router, DISCUSSIONS_API.listProjectIssueParticipants, async ({ req, res, params }) => {
    const { issue_iid } = params();
    const issue = await readableIssue(noteables, req, () => issue_iid);
    const base = req.ctx.externalUrl.replace(/\/+$/, '');
    const users = await noteables.participants(issue, readsNote(req, issue), (name) => `${base}/${name}`);
    await sendPage(req, res, await readPage(req, pageOf(users)), (items) => items);
  });

  route(router, DISCUSSIONS_API.listProjectIssueClosedBy, async ({ req, res, params }) => {
    const { issue_iid } = params();
    const issue = await readableIssue(noteables, req, () => issue_iid);
    await sendMergeRequests(
      req,
      res,
      await noteables.closingMergeRequests(issue, req.ctx.namespace!.fullPath),
    );
  });

  route(router, DISCUSSIONS_API.listProjectIssueRelatedMergeRequests, async ({ req, res, params }) => {
    const { issue_iid } = params();
    const issue = await readableIssue(noteables, req, () => issue_iid);
    const related = await noteables.relatedMergeRequests(
      issue,
      req.ctx.namespace!.fullPath,
      readsNote(req, issue),
    );
    await sendMergeRequests(req, res, related);
  });

  /** `authorize!(:destroy_issue, issue)`: ProjectPolicy gives it to the Owner (and admins) → else 403. */
  route(router, DISCUSSIONS_API.deleteProjectIssue, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const issue = await readableIssue(noteables, req, () => params().issue_iid);
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.owner) throw new ForbiddenError();
    await noteables.destroyIssue(issue);
    res.status(204).end();
  });

  return router;
}
