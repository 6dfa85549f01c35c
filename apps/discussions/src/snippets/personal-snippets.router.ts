import { Router, type Request } from 'express';
import { DISCUSSIONS_API, type PersonalSnippetEntity } from '@gl/contracts';
import { NotFoundError, requireUser, route, sendJson } from '@gl/service-kit';
import { readPage, sendPage } from '../common/http';
import type { NoteableDoc, NoteablesService } from '../noteables/noteables.service';
import type { ScopeProject } from '../lists/issuables.scope';
import type { PersonalSnippets, SnippetPage } from './personal-snippets';
import { presentSnippetEntity } from './snippets.presenter';
import {
  createRequestedSnippet,
  sendSnippetContent,
  sendSnippetFileAt,
  updateRequestedSnippet,
} from './snippet-requests';

/**
 * Entities::Snippet / Entities::PersonalSnippet: URLs below the snippet's project, or below the instance
 * for a personal snippet.
 */
function present(req: Request, doc: NoteableDoc, project: ScopeProject | undefined | null) {
  const base = req.ctx.externalUrl.replace(/\/+$/, '');
  const parent = doc.projectId !== null && project ? `${base}/${project.fullPath}` : base;
  return presentSnippetEntity(doc, parent) satisfies PersonalSnippetEntity;
}

/** lib/api/snippets.rb: personal snippets, and the lists across snippets. No project: the snippet decides. */
export function createPersonalSnippetsRouter(deps: {
  noteables: NoteablesService;
  snippets: PersonalSnippets;
}): Router {
  const { noteables, snippets } = deps;
  const router = Router();

  async function list(
    req: Request,
    res: Parameters<typeof sendPage>[1],
    read: (skip: number, limit: number) => Promise<SnippetPage>,
  ): Promise<void> {
    let projects = new Map<number, ScopeProject>();
    const page = await readPage(req, async (skip, limit) => {
      const found = await read(skip, limit);
      projects = found.projects;
      return found;
    });
    await sendPage(req, res, page, (items) =>
      items.map((doc) => present(req, doc, projects.get(doc.projectId!))),
    );
  }

  /** `find_snippet(id)` → not_found!('Snippet'). */
  async function readable(req: Request, id: number) {
    const found = await snippets.find(req.ctx, id);
    if (!found) throw new NotFoundError('Snippet');
    return found;
  }

  /** `snippets_for_current_user.find_by_id(id)`: the caller's own snippet, else 404 Snippet. */
  async function own(req: Request, id: () => number) {
    const user = requireUser(req.ctx);
    const found = await snippets.find(req.ctx, id());
    if (!found || found.snippet.author.id !== user.id) throw new NotFoundError('Snippet');
    return found;
  }

  // The fixed paths first: `/snippets/public` and `/snippets/all` are not snippet ids.
  route(router, DISCUSSIONS_API.listCurrentUserSnippets, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const window = params();
    await list(req, res, (skip, limit) => snippets.mine(req.ctx, window, skip, limit));
  });

  route(router, DISCUSSIONS_API.listPublicSnippets, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const window = params();
    await list(req, res, (skip, limit) => snippets.public(window, skip, limit));
  });

  route(router, DISCUSSIONS_API.listAllSnippets, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const window = params();
    await list(req, res, (skip, limit) => snippets.all(req.ctx, window, skip, limit));
  });

  route(router, DISCUSSIONS_API.createSnippet, async ({ req, res, params }) => {
    const user = requireUser(req.ctx);
    // lib/api/snippets.rb: `default: 'internal'`.
    const target = { projectId: null, author: user, defaultVisibility: 'internal' };
    const doc = await createRequestedSnippet(noteables, req, target, params());
    sendJson(res, 201, present(req, doc, null));
  });

  route(router, DISCUSSIONS_API.getSnippet, async ({ req, res, params }) => {
    const { snippet, project } = await readable(req, params().id);
    sendJson(res, 200, present(req, snippet, project));
  });

  route(router, DISCUSSIONS_API.updateSnippet, async ({ req, res, params }) => {
    requireUser(req.ctx);
    const given = params();
    // The author is the one who may (`update_snippet`): another user's snippet is not among theirs.
    const { updated, project } = await updateRequestedSnippet(noteables, req, given, () =>
      own(req, () => given.id),
    );
    sendJson(res, 200, present(req, updated, project));
  });

  route(router, DISCUSSIONS_API.deleteSnippet, async ({ req, res, params }) => {
    const { snippet } = await own(req, () => params().id);
    await noteables.destroySnippet(snippet);
    res.status(204).end();
  });

  route(router, DISCUSSIONS_API.getSnippetRaw, async ({ req, res, params }) => {
    const { snippet } = await readable(req, params().id);
    sendSnippetContent(res, snippet);
  });

  route(router, DISCUSSIONS_API.getSnippetFileRaw, async ({ req, res, params }) => {
    const given = params();
    await sendSnippetFileAt(res, given, async () => (await readable(req, given.id)).snippet);
  });

  return router;
}
