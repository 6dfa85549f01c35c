import { Router, type Request } from 'express';
import { ACCESS_LEVELS, createLabelBody, listLabelsQuery, updateLabelBody } from '@gl/contracts';
import {
  ParamError,
  atLeastOneOf,
  collectParams,
  parseParams,
  readPageRequest,
  sendJson,
  sendNoContent,
  setPaginationHeaders,
  type Counters,
} from '@gl/service-kit';
import { groupAndAncestors, groupWriter, readableGroup } from './boards.access';
import type { BoardsModels } from './boards.models';
import type { BoardsService } from './boards.service';
import { LabelsService } from './labels.service';
import { presentLabel } from './presenters';

export function createLabelsRouter(models: BoardsModels, counters: Counters, boards: BoardsService): Router {
  const router = Router();
  const labels = new LabelsService(models, counters, boards);

  router.get('/groups/:id/labels', async (req, res) => {
    const ns = readableGroup(req.ctx);
    const params = parseParams(listLabelsQuery, req.query);
    const page = readPageRequest(req.query);
    const groups = params.include_ancestor_groups === false ? [ns.id] : groupAndAncestors(ns);
    const { total, docs } = await labels.page(groups, params.search, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(res, 200, docs.map(presentLabel));
  });

  router.get('/groups/:id/labels/:label_id', async (req, res) => {
    const ns = readableGroup(req.ctx);
    sendJson(res, 200, presentLabel(await labels.find(ns.id, String(req.params.label_id))));
  });

  router.post('/groups/:id/labels', async (req, res) => {
    const { ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    const params = parseParams(createLabelBody, collectParams(req));
    const doc = await labels.create(ns.id, params);
    sendJson(res, 201, presentLabel(doc));
  });

  router.put('/groups/:id/labels/:label_id', async (req: Request, res) => {
    const { ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    const all = collectParams(req);
    const params = parseParams(updateLabelBody, all);
    const broken = atLeastOneOf('new_name', 'color', 'description', 'priority')(all);
    if (broken) throw new ParamError([broken]);
    const updated = await labels.update(ns.id, params);
    sendJson(res, 200, presentLabel(updated));
  });

  router.delete('/groups/:id/labels/:label_id', async (req, res) => {
    const { ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    await labels.remove(ns.id, String(req.params.label_id));
    sendNoContent(res);
  });

  return router;
}
