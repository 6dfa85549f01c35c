import { Router } from 'express';
import { ACCESS_LEVELS, BOARDS_API } from '@gl/contracts';
import { ForbiddenError, accessLevelOf, isHigherTier, route, sendJson } from '@gl/service-kit';
import { sendPage } from '../common/http';
import { groupWriter, readableGroup } from '../boards/boards.access';
import { today, type IterationsService } from './iterations.service';
import { presentIteration } from './iterations.presenter';

/**
 * Group iterations. GitLab's list (ee/lib/api/iterations.rb) authorizes `read_iteration`, which needs the
 * group readable and the iterations feature (Premium and up): `authorize!` answers 403 without it. Our
 * creation call needs `create_iteration`: Reporter and up with the feature (ee GroupPolicy).
 */
export function createIterationsRouter(iterations: IterationsService): Router {
  const router = Router();

  route(router, BOARDS_API.listGroupIterations, async ({ req, res, ctx, params }) => {
    const query = params();
    const ns = readableGroup(ctx);
    if (!isHigherTier(ctx)) throw new ForbiddenError();
    const member = accessLevelOf(ctx) >= ACCESS_LEVELS.guest || ctx.principal?.isAdmin === true;
    const pc = { parent: ns, externalUrl: ctx.externalUrl };
    await sendPage(
      req,
      res,
      (page) => iterations.page(ns, query, page, member),
      (docs) => {
        const day = today();
        return docs.map((doc) => presentIteration(doc, pc, day));
      },
    );
  });

  route(router, BOARDS_API.createGroupIteration, async ({ res, ctx, params }) => {
    const { ns } = groupWriter(ctx, ACCESS_LEVELS.reporter);
    if (!isHigherTier(ctx)) throw new ForbiddenError();
    const created = await iterations.create(ns, params());
    sendJson(res, 201, presentIteration(created, { parent: ns, externalUrl: ctx.externalUrl }));
  });

  return router;
}
