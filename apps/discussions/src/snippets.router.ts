import type { Request, Router } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, SNIPPET_UPDATE_AT_LEAST_ONE_OF } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  accessLevelOf,
  atLeastOneOf,
  collectParams,
  mutuallyExclusive,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { canReadNoteable, readableNamespace } from './discussions.access';
import type { NoteableDoc } from './discussions.models';
import { presentSnippet } from './discussions.presenters';
import type { NoteablesService } from './noteables.service';
import { pathIdOf } from './path-ids';
import { applyFileActions } from './snippets';

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

/** lib/api/project_snippets.rb: PUT, `raw` and DELETE of one project snippet. */
export function routeProjectSnippets(router: Router, noteables: NoteablesService): void {
  /** `snippets_for_current_user.find_by(id:)` → not_found!('Snippet'). */
  async function snippetOr404(req: Request): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'project');
    const snippet = await noteables.findSnippet(ns.id, pathIdOf(req, 'snippet_id'));
    if (!snippet || !canReadNoteable(req.ctx, snippet)) throw new NotFoundError('Snippet');
    return snippet;
  }

  route(router, DISCUSSIONS_API.updateProjectSnippet, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const given = params();
    const raw = collectParams(req);
    const rules = [
      atLeastOneOf(...SNIPPET_UPDATE_AT_LEAST_ONE_OF),
      mutuallyExclusive('files', 'content'),
      mutuallyExclusive('files', 'file_name'),
    ];
    const broken = rules.map((rule) => rule(raw)).filter((m): m is string => m !== null);
    if (broken.length > 0) throw new ParamError(broken);
    const snippet = await snippetOr404(req);
    requireSnippetAdmin(req, snippet);
    let file: { fileName?: string; content?: string } = {
      fileName: given.file_name,
      content: given.content,
    };
    if (given.files) {
      const applied = applyFileActions(snippet, given.files);
      // Snippets::UpdateService: actions that do not apply are the service's 422.
      if (!applied) throw new HttpError(422, { message: 'Snippet actions have invalid data' });
      file = { fileName: applied.fileName ?? undefined, content: applied.content ?? undefined };
    }
    const updated = await noteables.updateSnippet(snippet, {
      title: given.title,
      description: given.description,
      visibility: given.visibility,
      ...file,
    });
    sendJson(res, 200, presentSnippet(updated, req.ctx.namespace!));
  });

  /** `content_for(snippet)`: the content as text/plain, inline, named after the file. */
  route(router, DISCUSSIONS_API.getProjectSnippetRaw, async ({ req, res }) => {
    const snippet = await snippetOr404(req);
    const name = snippet.fileName ?? '';
    res.status(200);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader(
      'Content-Disposition',
      `inline; filename="${name.replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
    res.send(snippet.content ?? '');
  });

  route(router, DISCUSSIONS_API.deleteProjectSnippet, async ({ req, res }) => {
    requireUser(req.ctx);
    const snippet = await snippetOr404(req);
    requireSnippetAdmin(req, snippet);
    await noteables.destroySnippet(snippet);
    res.status(204).end();
  });
}
