import { Router, type Request } from 'express';
import {
  ACCESS_LEVELS,
  TEXT_LIMITS,
  bytesizeErrors,
  createLabelBody,
  lengthErrors,
  listLabelsQuery,
  updateLabelBody,
} from '@gl/contracts';
import {
  ConflictError,
  ModelError,
  NotFoundError,
  ParamError,
  atLeastOneOf,
  collectParams,
  isDuplicateKeyError,
  parseParams,
  readPageRequest,
  sendJson,
  sendNoContent,
  setPaginationHeaders,
  type Counters,
  findPage,
} from '@gl/service-kit';
import { groupAndAncestors, groupWriter, readableGroup } from './boards.access';
import type { BoardsModels, LabelDoc } from './boards.models';
import type { BoardsService } from './boards.service';
import { presentLabel } from './presenters';

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Label's validations (app/models/label.rb) on the attributes being written, every broken one in one
 * render_validation_error! body, in the model's declaration order: color, title, description.
 */
function validateLabel(input: { color?: string; title?: string; description?: string | null }): void {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, messages: string[]): void => {
    if (messages.length > 0) (errors[attribute] ??= []).push(...messages);
  };
  if (input.color !== undefined && !COLOR.test(input.color)) add('color', ['must be a valid color code']);
  if (input.title !== undefined) add('title', lengthErrors(input.title, TEXT_LIMITS.labelTitle));
  add('description', bytesizeErrors(input.description, TEXT_LIMITS.labelDescriptionBytes));
  if (Object.keys(errors).length > 0) throw ModelError.fields(errors);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function createLabelsRouter(models: BoardsModels, counters: Counters, boards: BoardsService): Router {
  const router = Router();

  /** find_label: by id when numeric, else by name, within the group. */
  async function findLabel(groupId: number, key: string): Promise<LabelDoc> {
    const filter = /^\d+$/.test(key) ? { _id: Number(key), groupId } : { name: key, groupId };
    const label = await models.labels.findOne(filter).lean<LabelDoc>();
    if (!label) throw new NotFoundError('Label');
    return label;
  }

  router.get('/groups/:id/labels', async (req, res) => {
    const ns = readableGroup(req.ctx);
    const params = parseParams(listLabelsQuery, req.query);
    const page = readPageRequest(req.query);
    const groups = params.include_ancestor_groups === false ? [ns.id] : groupAndAncestors(ns);
    const filter: Record<string, unknown> = { groupId: { $in: groups } };
    if (params.search) filter.name = { $regex: escapeRegex(params.search), $options: 'i' };
    const { total, docs } = await findPage(models.labels, filter, { name: 1 }, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(res, 200, docs.map(presentLabel));
  });

  router.get('/groups/:id/labels/:label_id', async (req, res) => {
    const ns = readableGroup(req.ctx);
    sendJson(res, 200, presentLabel(await findLabel(ns.id, String(req.params.label_id))));
  });

  router.post('/groups/:id/labels', async (req, res) => {
    const { ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    const params = parseParams(createLabelBody, collectParams(req));
    if (await models.labels.exists({ groupId: ns.id, name: params.name })) {
      throw new ConflictError('Label already exists');
    }
    validateLabel({ color: params.color, title: params.name, description: params.description });
    const color = params.color;
    const doc: LabelDoc = {
      _id: await counters.next('label'),
      groupId: ns.id,
      name: params.name,
      color,
      description: params.description ?? null,
      priority: params.priority ?? null,
      createdAt: new Date(),
    };
    try {
      await models.labels.create(doc);
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new ConflictError('Label already exists');
      throw err;
    }
    sendJson(res, 201, presentLabel(doc));
  });

  router.put('/groups/:id/labels/:label_id', async (req: Request, res) => {
    const { ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    const all = collectParams(req);
    const params = parseParams(updateLabelBody, all);
    const broken = atLeastOneOf('new_name', 'color', 'description', 'priority')(all);
    if (broken) throw new ParamError([broken]);
    const label = await findLabel(ns.id, params.label_id);
    const set: Partial<LabelDoc> = {};
    if (params.new_name !== undefined) {
      if (params.new_name === '') throw ModelError.fields({ title: ["can't be blank"] });
      set.name = params.new_name;
    }
    validateLabel({ color: params.color, title: params.new_name, description: params.description });
    if (params.color !== undefined) set.color = params.color;
    if (params.description !== undefined) set.description = params.description;
    if (params.priority !== undefined) set.priority = params.priority;
    let updated: LabelDoc | null;
    try {
      updated = await models.labels
        .findOneAndUpdate({ _id: label._id }, { $set: set }, { new: true })
        .lean<LabelDoc>();
    } catch (err) {
      if (isDuplicateKeyError(err)) throw ModelError.fields({ title: ['has already been taken'] });
      throw err;
    }
    if (!updated) throw new NotFoundError('Label');
    sendJson(res, 200, presentLabel(updated));
  });

  router.delete('/groups/:id/labels/:label_id', async (req, res) => {
    const { ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    const label = await findLabel(ns.id, String(req.params.label_id));
    await models.labels.deleteOne({ _id: label._id });
    await boards.forgetTarget('label', label._id);
    sendNoContent(res);
  });

  return router;
}
