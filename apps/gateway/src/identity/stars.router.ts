import { Router, type Request, type Response } from 'express';
import { IDENTITY_API } from '@gl/contracts';
import { sendJson, setPaginationHeaders } from '@gl/service-kit';
import { resolveProject } from '../namespaces/resolve';
import { callerOf, identityRoutes, pageOf } from './http';
import type { IdentityRouterDeps } from './router-deps';
import { presentProject } from './projects.presenter';
import type { ProjectDoc, StarsService } from './stars.service';
import { userBasic } from './users.entities';

/** POST /projects/:id/star, /unstar (201 with the project, or 304 when nothing changes) and starrers. */
export function createStarsRouter(deps: IdentityRouterDeps & { stars: StarsService }): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { stores, externalUrl, stars } = deps;

  /** The project the path names (`pathParams()`: its id or full path), as the caller may see it. */
  const projectOf = async (req: Request, { id }: { id: string }): Promise<ProjectDoc> =>
    (await resolveProject(stores, id, req.principal, externalUrl)).project!;

  async function answer(res: Response, project: ProjectDoc | null): Promise<void> {
    // not_modified!: 304 and no body at all.
    if (!project) {
      res.status(304).end();
      return;
    }
    sendJson(res, 201, await presentProject(stores, externalUrl, project, null));
  }

  serve(IDENTITY_API.starProject, async ({ req, res, pathParams }) => {
    const project = await projectOf(req, pathParams());
    await answer(res, await stars.star(project, callerOf(req).id));
  });

  serve(IDENTITY_API.unstarProject, async ({ req, res, pathParams }) => {
    const project = await projectOf(req, pathParams());
    await answer(res, await stars.unstar(project, callerOf(req).id));
  });

  serve(IDENTITY_API.listStarrers, async ({ req, res, params, pathParams }) => {
    const { search } = params();
    const project = await projectOf(req, pathParams());
    const page = pageOf(req);
    const { total, rows } = await stars.starrers(project, search, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      rows.map(({ star, user }) => ({
        starred_since: star.createdAt.toISOString(),
        user: userBasic(externalUrl, user),
      })),
    );
  });

  return router;
}
