import type { FilterQuery } from 'mongoose';
import { DOMAIN_EVENT_TYPES, DURABLES, labelDefinedData, type LabelDefinedData } from '@gl/contracts';
import { eventData, type Subscription } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { LabelCopyDoc } from './label-copy.model';
import { subtreeOf } from './group-subtree';
import { upsertNewerRevision } from './revised-copies';

/** Items retitled per read: each is one write of the item (its labels, their words and list keys). */
export const RETITLE_BATCH = 200;

/** What retitling needs of the noteables store: the write that keeps labels' derived fields and words. */
export interface LabelledItems {
  update(id: number, set: Record<string, unknown>, events: []): Promise<void>;
}

/** LabelBasic (lib/api/entities/label_basic.rb) as a copy gives it. */
export interface LabelDetails {
  id: number;
  name: string;
  color: string;
  description: string | null;
  description_html: string;
  text_color: string;
}

const BOARDS = DOMAIN_EVENT_TYPES.boards;
const LABELLED_KINDS = ['Issue', 'MergeRequest'];

/**
 * Discussions' copy of the boards service's labels (`gl.boards.label.defined`). Issues, merge requests and
 * epics hold label titles where GitLab links labels by id, so a renamed label is renamed on every item of
 * its scope and a deleted one taken off them (Labels::UpdateService, Labels::DestroyService's label_links),
 * and the copy tells what a title is when a list shows labels in full.
 */
export function createLabelCopies(
  models: Pick<DiscussionsModels, 'labels' | 'noteables' | 'projects' | 'groups' | 'resourceEvents'>,
  items: LabelledItems,
) {
  /** Where a label's items are: its project's issues and merge requests, or those of its group's subtree and its epics. */
  async function scopeOf(data: LabelDefinedData): Promise<FilterQuery<NoteableDoc>[]> {
    if (data.projectId !== null) return [{ kind: { $in: LABELLED_KINDS }, projectId: data.projectId }];
    const { projectIds, groupIds } = await subtreeOf(models, data.groupId!);
    return [
      { kind: { $in: LABELLED_KINDS }, projectId: { $in: projectIds } },
      { kind: 'Epic', groupId: { $in: groupIds } },
    ];
  }

  /**
   * Gives every item of the scope that has `from` the title `to` instead (null: takes it off), a batch at
   * a time through the store's own write. Items already done are not found again, so a delivery that
   * is repeated or cut short by a crash picks up where the last one stopped. Their label events follow.
   */
  async function retitle(scope: FilterQuery<NoteableDoc>[], from: string, to: string | null) {
    let changed = 0;
    for (const part of scope) {
      for (;;) {
        const found = await models.noteables
          .find({ ...part, labels: from })
          .select({ labels: 1 })
          .limit(RETITLE_BATCH)
          .lean<Pick<NoteableDoc, '_id' | 'labels'>[]>();
        if (found.length === 0) break;
        for (const item of found) {
          // In place, so the issue keeps the order its labels were given in.
          const renamed = item.labels.flatMap((title) =>
            title !== from ? [title] : to === null ? [] : [to],
          );
          const labels = [...new Set(renamed)];
          await items.update(item._id, { labels }, []);
        }
        if (to !== null) {
          const ids = found.map((item) => item._id);
          await models.resourceEvents.updateMany(
            { resourceId: { $in: ids }, kind: 'label', labelName: from },
            { $set: { labelName: to } },
          );
        }
        changed += found.length;
      }
    }
    return changed;
  }

  /**
   * Keeps the newest definition (older and redelivered ones change nothing). The items are brought to it
   * before the copy is written, so a crash in between leaves the copy behind and the redelivery redoes
   * what is left. The title before is the copy's, or the event's for a label the copy has not seen.
   */
  async function apply(data: LabelDefinedData): Promise<number> {
    const copy = await models.labels.findById(data.labelId).lean<LabelCopyDoc>();
    if (copy && copy.revision >= data.revision) return 0;
    const before = copy && !copy.deleted ? copy.title : data.previousTitle;
    let changed = 0;
    // A label merged into a group label by a promotion leaves its title on its items: the group label's.
    if (data.deleted && data.mergedInto === null)
      changed = await retitle(await scopeOf(data), data.title, null);
    else if (before !== null && before !== data.title)
      changed = await retitle(await scopeOf(data), before, data.title);
    const { labelId, previousTitle: _previous, mergedInto: _merged, ...fields } = data;
    await upsertNewerRevision(models.labels, labelId, fields);
    return changed;
  }

  /**
   * The labels the titles name for items of a project: the project's own label of that title, else the
   * nearest of its groups' (ProjectLabel keeps a title apart from its groups' labels). Titles without a
   * copy are left out.
   */
  async function detailsOf(projectId: number, titles: string[]): Promise<Map<string, LabelDetails>> {
    if (titles.length === 0) return new Map();
    const project = await models.projects.findById(projectId).select({ ancestorGroupIds: 1 }).lean();
    const ancestors = project?.ancestorGroupIds ?? [];
    const found = await models.labels
      .find({
        title: { $in: titles },
        deleted: false,
        $or: [{ projectId }, { groupId: { $in: ancestors } }],
      })
      .lean<LabelCopyDoc[]>();
    // 0 for the project's own, then 1 for its parent group and up to its root.
    const distance = (label: LabelCopyDoc) =>
      label.projectId !== null ? 0 : ancestors.length - ancestors.indexOf(label.groupId!);
    const byTitle = new Map<string, LabelDetails>();
    for (const label of found.sort((a, b) => distance(a) - distance(b))) {
      if (!byTitle.has(label.title)) byTitle.set(label.title, presentLabel(label));
    }
    return byTitle;
  }

  return { apply, detailsOf };
}

export type LabelCopies = ReturnType<typeof createLabelCopies>;

/** LabelBasic from a copy; `description_html` is the description as text (no Markdown rendering here). */
export function presentLabel(label: LabelCopyDoc): LabelDetails {
  return {
    id: label._id,
    name: label.title,
    color: label.color,
    description: label.description,
    description_html: label.description ?? '',
    text_color: label.textColor,
  };
}

/** `gl.boards.label.defined` into the copy and the items of the label's scope. */
export function labelCopiesProjection(copies: LabelCopies): Subscription {
  return {
    durable: DURABLES.discussionsLabels,
    filterSubjects: [BOARDS.labelDefined],
    async handle(event) {
      await copies.apply(eventData(labelDefinedData, event));
    },
  };
}
