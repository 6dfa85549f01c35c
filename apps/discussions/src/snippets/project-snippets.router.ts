import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import {
  ForbiddenError,
  NotFoundError,
  accessLevelOf,
  requestOrigin,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { canReadNoteable, readableNamespace, requireRole, userSummaryOf } from '../common/access';
import { readPage, sendPage } from '../common/http';
import { SERVICE_PRODUCER } from '../common/origin';
import type { NoteableDoc, NoteablesService } from '../noteables/noteables.service';
import { listVisibility } from '../noteables/list-visibility';
import { filesOf } from './snippet-files';
import { presentSnippet } from './snippets.presenter';
import {
  checkUpdateRules,
  filesToCreate,
  requireValidFilePath,
  sendSnippetFile,
  sendSnippetFileAt,
  snippetChanges,
} from './snippet-requests';

/**
 * ProjectSnippetPolicy `update_snippet` / `admin_snippet`: the author (who still reads it), or Maintainer
 * and up (and admins); else `authorize!` answers 403.
 */
function requireSnippetAdmin(req: Request, snippet: NoteableDoc): void {
  const user = requireUser(req.ctx);
  if (snippet.author.id !== user.id && accessLevelOf(req.ctx) < ACCESS_LEVELS.maintainer) {
    throw new ForbiddenError();
  }
}

/** lib/api/project_snippets.rb: a project's snippets, and reading, changing and deleting one of them. */
export function createProjectSnippetsRouter(noteables: NoteablesService): Router {
  const router = Router();

  /**
   * `snippets_for_current_user.find_by(id:)` → not_found!('Snippet'); `authorize! :read_snippet` is
   * answered as the finder would. The id is read once the project is known to be readable.
   */
  async function snippetOr404(req: Request, snippetId: () => number): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'project');
    const snippet = await noteables.findSnippet(ns.id, snippetId());
    if (!snippet || !canReadNoteable(req.ctx, snippet)) throw new NotFoundError('Snippet');
    return snippet;
  }

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

  route(router, DISCUSSIONS_API.getProjectSnippet, async ({ req, res, params }) => {
    const snippet = await snippetOr404(req, () => params().snippet_id);
    sendJson(res, 200, presentSnippet(snippet, req.ctx.namespace!));
  });

  route(router, DISCUSSIONS_API.updateProjectSnippet, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const given = params();
    checkUpdateRules(req, given.files);
    const snippet = await snippetOr404(req, () => given.snippet_id);
    requireSnippetAdmin(req, snippet);
    const updated = await noteables.updateSnippet(snippet, snippetChanges(snippet, given));
    sendJson(res, 200, presentSnippet(updated, req.ctx.namespace!));
  });

  /** `content_for(snippet)`: the first file. */
  route(router, DISCUSSIONS_API.getProjectSnippetRaw, async ({ req, res, params }) => {
    const snippet = await snippetOr404(req, () => params().snippet_id);
    sendSnippetFile(res, filesOf(snippet)[0]);
  });

  route(router, DISCUSSIONS_API.getProjectSnippetFileRaw, async ({ req, res, params }) => {
    const given = params();
    requireValidFilePath(given.file_path);
    sendSnippetFileAt(res, await snippetOr404(req, () => given.snippet_id), given);
  });

  route(router, DISCUSSIONS_API.deleteProjectSnippet, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const snippet = await snippetOr404(req, () => params().snippet_id);
    requireSnippetAdmin(req, snippet);
    await noteables.destroySnippet(snippet);
    res.status(204).end();
  });

  return router;
}
