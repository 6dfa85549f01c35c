import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  requestOrigin,
  route,
  sendJson,
} from '@gl/service-kit';
import { canReadCode, readableNamespace, requireRole, userSummaryOf } from '../common/access';
import { presentCommit } from './commits.presenter';
import { readPage, sendPage } from '../common/http';
import { SERVICE_PRODUCER } from '../common/origin';
import type { NoteablesService } from '../noteables/noteables.service';

/** `read_code` (download_code): lib/api/commits.rb `authorize! :download_code, user_project` → 403. */
function requireCode(req: Request): void {
  if (!canReadCode(req.ctx)) throw new ForbiddenError();
}

/** The commits API: create (with its branch push), list and show a project's commits. */
export function createCommitsRouter(
  noteables: Pick<NoteablesService, 'createCommit' | 'listCommits' | 'findCommit'>,
): Router {
  const router = Router();

  route(router, DISCUSSIONS_API.createProjectCommit, async ({ req, res, params }) => {
    readableNamespace(req.ctx, 'project');
    const user = requireRole(req.ctx, ACCESS_LEVELS.developer);
    const given = params();
    if (given.actions.length === 0) throw new ParamError(['actions is empty']);
    // Branches::ValidateNewService: a ref the repository cannot store is invalid. Git keeps each ref
    // component as a file name, at most 255 bytes (an unbounded name also made an unpublishable event).
    const refComponents = [given.branch, given.start_branch ?? ''].flatMap((ref) => ref.split('/'));
    if (refComponents.some((part) => Buffer.byteLength(part) > 255)) {
      throw new HttpError(400, { message: 'Branch name is invalid' });
    }
    const commit = await noteables.createCommit(
      requestOrigin(SERVICE_PRODUCER, req.ctx),
      req.ctx.namespace!.id,
      userSummaryOf(user),
      given.author_email ?? user.email,
      given,
    );
    sendJson(res, 201, presentCommit(commit, req.ctx.namespace!));
  });

  route(router, DISCUSSIONS_API.listProjectCommits, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    requireCode(req);
    const query = params();
    const list = await readPage(req, (skip, limit) =>
      noteables.listCommits(ns.id, query.ref_name, skip, limit),
    );
    await sendPage(req, res, list, (items) => items.map((commit) => presentCommit(commit, ns)));
  });

  route(router, DISCUSSIONS_API.getProjectCommit, async ({ req, res, params }) => {
    const ns = readableNamespace(req.ctx, 'project');
    requireCode(req);
    const commit = await noteables.findCommit(ns.id, params().sha);
    if (!commit) throw new NotFoundError('Commit');
    sendJson(res, 200, presentCommit(commit, ns));
  });

  return router;
}
