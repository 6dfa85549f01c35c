import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API } from '@gl/contracts';
import { ForbiddenError, NotFoundError, accessLevelOf, requireUser, route, sendJson } from '@gl/service-kit';
import { canReadNoteable, readableNamespace, requireRole } from '../common/access';
import { readPage, sendPage } from '../common/http';
import type { NoteableDoc, NoteablesService } from '../noteables/noteables.service';
import { listVisibility } from '../noteables/list-visibility';
import { presentSnippet } from './snippets.presenter';
import {
  createRequestedSnippet,
  sendSnippetContent,
  sendSnippetFileAt,
  updateRequestedSnippet,
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

  /** The snippet as snippetOr404 finds it, for a caller who may change it (requireSnippetAdmin, else 403). */
  async function administeredSnippet(
    req: Request,
    snippetId: () => number,
  ): Promise<{ snippet: NoteableDoc }> {
    const snippet = await snippetOr404(req, snippetId);
    requireSnippetAdmin(req, snippet);
    return { snippet };
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
    const ns = readableNamespace(req.ctx, 'project');
    const user = requireRole(req.ctx, ACCESS_LEVELS.reporter);
    const target = { projectId: ns.id, author: user, defaultVisibility: 'private' };
    const doc = await createRequestedSnippet(noteables, req, target, params());
    sendJson(res, 201, presentSnippet(doc, req.ctx.namespace!));
  });

  route(router, DISCUSSIONS_API.getProjectSnippet, async ({ req, res, params }) => {
    const snippet = await snippetOr404(req, () => params().snippet_id);
    sendJson(res, 200, presentSnippet(snippet, req.ctx.namespace!));
  });

  route(router, DISCUSSIONS_API.updateProjectSnippet, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const given = params();
    const { updated } = await updateRequestedSnippet(noteables, req, given, () =>
      administeredSnippet(req, () => given.snippet_id),
    );
    sendJson(res, 200, presentSnippet(updated, req.ctx.namespace!));
  });

  route(router, DISCUSSIONS_API.getProjectSnippetRaw, async ({ req, res, params }) => {
    const snippet = await snippetOr404(req, () => params().snippet_id);
    sendSnippetContent(res, snippet);
  });

  route(router, DISCUSSIONS_API.getProjectSnippetFileRaw, async ({ req, res, params }) => {
    const given = params();
    await sendSnippetFileAt(res, given, () => snippetOr404(req, () => given.snippet_id));
  });

  route(router, DISCUSSIONS_API.deleteProjectSnippet, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const { snippet } = await administeredSnippet(req, () => params().snippet_id);
    await noteables.destroySnippet(snippet);
    res.status(204).end();
  });

  return router;
}
