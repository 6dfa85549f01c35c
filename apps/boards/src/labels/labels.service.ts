import type { z } from 'zod';
import {
  TEXT_LIMITS,
  bytesizeErrors,
  lengthErrors,
  type createLabelBody,
  type updateLabelBody,
} from '@gl/contracts';
import { ConflictError, ModelError, NotFoundError, type PageRequest } from '@gl/service-kit';
import type { LabelDoc } from '../boards.models';

export type { LabelDoc };
import type { BoardsService } from '../boards/boards.service';
import type { LabelChanges, LabelsStore } from './labels.store';

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/**
 * Label's validations (app/models/label.rb) on the attributes being written, every broken one in one
 * render_validation_error! body, in the model's declaration order: color, title, description.
 */
export function validateLabel(input: { color?: string; title?: string; description?: string | null }): void {
  const errors: Record<string, string[]> = {};
  const add = (attribute: string, messages: string[]): void => {
    if (messages.length > 0) (errors[attribute] ??= []).push(...messages);
  };
  if (input.color !== undefined && !COLOR.test(input.color)) add('color', ['must be a valid color code']);
  // `format: { with: /\A[^,]+\z/ }`: commas separate titles in label lists, so no title has one.
  if (input.title?.includes(',')) add('title', ['is invalid']);
  if (input.title !== undefined) add('title', lengthErrors(input.title, TEXT_LIMITS.labelTitle));
  add('description', bytesizeErrors(input.description, TEXT_LIMITS.labelDescriptionBytes));
  if (Object.keys(errors).length > 0) throw ModelError.fields(errors);
}

/** What an update of a label of either kind may change: one of them at least (`at_least_one_of`). */
export const LABEL_UPDATABLE = ['new_name', 'color', 'description', 'priority'] as const;

/**
 * Labels::UpdateService's changes to a label of either kind: the fields given, a blank new title refused
 * first, then Label's validations on them.
 */
export function labelChanges(params: {
  new_name?: string;
  color?: string;
  description?: string;
  priority?: number | null;
}): LabelChanges {
  const changes: LabelChanges = {};
  if (params.new_name !== undefined) {
    if (params.new_name === '') throw ModelError.fields({ title: ["can't be blank"] });
    changes.name = params.new_name;
  }
  validateLabel({ color: params.color, title: params.new_name, description: params.description });
  if (params.color !== undefined) changes.color = params.color;
  if (params.description !== undefined) changes.description = params.description;
  if (params.priority !== undefined) changes.priority = params.priority;
  return changes;
}

const alreadyExists = (): ConflictError => new ConflictError('Label already exists');

/** Group labels (lib/api/group_labels.rb, Labels::CreateService / UpdateService). */
export function createLabelsService(labels: LabelsStore, boards: BoardsService) {
  function page(groupIds: number[], search: string | undefined, page: PageRequest) {
    return labels.page(groupIds, search, page);
  }

  /** find_label: by id when numeric, else by name, within the group. */
  async function find(groupId: number, key: string): Promise<LabelDoc> {
    const label = /^\d+$/.test(key)
      ? await labels.findById(groupId, Number(key))
      : await labels.findByName(groupId, key);
    if (!label) throw new NotFoundError('Label');
    return label;
  }

  async function create(groupId: number, params: z.infer<typeof createLabelBody>): Promise<LabelDoc> {
    if (await labels.nameTaken(groupId, params.name)) throw alreadyExists();
    validateLabel({ color: params.color, title: params.name, description: params.description });
    const created = await labels.create({
      groupId,
      name: params.name,
      color: params.color,
      description: params.description ?? null,
      priority: params.priority ?? null,
    });
    if (created === 'taken') throw alreadyExists();
    return created;
  }

  async function update(groupId: number, params: z.infer<typeof updateLabelBody>): Promise<LabelDoc> {
    const label = await find(groupId, params.label_id);
    const changes = labelChanges(params);
    const updated = await labels.update(label._id, changes);
    if (updated === 'taken') throw ModelError.fields({ title: ['has already been taken'] });
    if (!updated) throw new NotFoundError('Label');
    return updated;
  }

  /** Deletes the label and the board lists showing it. */
  async function remove(groupId: number, key: string): Promise<void> {
    const label = await find(groupId, key);
    await labels.remove(label._id);
    await boards.forgetTarget('label', label._id);
  }

  return { page, find, create, update, remove };
}

export type LabelsService = ReturnType<typeof createLabelsService>;
