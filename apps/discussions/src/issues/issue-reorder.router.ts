import { Router } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  accessLevelOf,
  atLeastOneOf,
  collectParams,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { accessTargetOf, canReadNote, readableNamespace } from '../common/access';
import { presentIssue } from './issues.presenter';
import { positionScopeOfNamespace, type IssuablesScope } from '../lists/issuables.scope';
import type { NoteableDoc, NoteablesService } from '../noteables/noteables.service';

/** Issues::ReorderService refused the move: lib/api/issues.rb `render_api_error!({ error: ... }, 422)`. */
const unprocessable = () => new HttpError(422, { message: { error: 'Unprocessable Entity' } });

/**
 * PUT /projects/:id/issues/:issue_iid/reorder (lib/api/issues.rb, Issues::ReorderService,
 * IssuableBaseService#handle_move_between_ids): places the issue after `move_after_id` and before
 * `move_before_id`, global ids of issues anywhere in the same root group's projects.
 */
export function createIssueReorderRouter(noteables: NoteablesService, scope: IssuablesScope): Router {
  const router = Router();

  /** The neighbour's positioning scope must be the issue's (`relative_positioning_query_base.find`). */
  async function neighbour(id: number | null, positionScope: string, self: NoteableDoc) {
    if (id === null || id === self._id) return null;
    const doc = await noteables.findIssueById(id);
    if (!doc || doc.kind !== 'Issue') throw unprocessable();
    const theirs =
      doc.positionScope ??
      (doc.projectId === self.projectId ? positionScope : await scope.positionScopeOf(doc.projectId!));
    if (theirs !== positionScope) throw unprocessable();
    return doc._id;
  }

  route(router, DISCUSSIONS_API.reorderProjectIssue, async ({ req, res, params }) => {
    const user = requireUser(req.ctx);
    const ns = readableNamespace(req.ctx, 'project');
    const given = params();
    const missing = atLeastOneOf('move_after_id', 'move_before_id')(collectParams(req));
    if (missing) throw new ParamError([missing]);
    const issue = await noteables.findByIid('Issue', 'projectId', ns.id, given.issue_iid);
    if (!issue) throw new NotFoundError('Issue');
    // authorize! :update_issue: the author, an assignee, or Reporter and up.
    const own = issue.author.id === user.id || issue.assigneeIds.includes(user.id);
    if (!own && accessLevelOf(req.ctx) < ACCESS_LEVELS.reporter) throw new ForbiddenError();
    // ReorderService#move_between_ids: ids of 0 or less count as absent; none left → not moved (422).
    const positive = (id: number | undefined): number | null => (id !== undefined && id > 0 ? id : null);
    const afterId = positive(given.move_after_id);
    const beforeId = positive(given.move_before_id);
    if (afterId === null && beforeId === null) throw unprocessable();
    const positionScope = issue.positionScope ?? positionScopeOfNamespace(ns);
    const follows = await neighbour(afterId, positionScope, issue);
    const precedes = await neighbour(beforeId, positionScope, issue);
    if (follows === null && precedes === null) throw unprocessable();
    const moved = await noteables.moveIssueBetween(positionScope, issue._id, follows, precedes);
    if (!moved) throw unprocessable();
    const updated = (await noteables.findIssueById(issue._id))!;
    const extras = {
      milestone: await noteables.milestone(updated.milestoneId),
      userNotesCount: noteables.userNotesCount(
        updated,
        canReadNote(req.ctx, accessTargetOf(updated), { internal: true }),
      ),
      votes: noteables.votes(updated),
    };
    sendJson(res, 200, presentIssue(updated, ns, extras));
  });

  return router;
}
