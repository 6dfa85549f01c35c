import { defineModel, documentSchema, isDuplicateKeyError } from '@gl/service-kit';
import type { DiscussionsDeps } from '../discussions.models';

/** EpicIssue: an issue's place in an epic; an issue is in one epic at most (unique issue). */
export interface EpicIssueDoc {
  _id: number;
  epicId: number;
  issueId: number;
  relativePosition: number;
  createdAt: Date;
}

/** The links between epics and issues (EpicIssues::CreateService, DestroyService). */
export function createEpicIssues(deps: Pick<DiscussionsDeps, 'models' | 'counters'>) {
  const schema = documentSchema<EpicIssueDoc>({
    _id: Number,
    epicId: Number,
    issueId: Number,
    relativePosition: Number,
    createdAt: Date,
  });
  schema.index({ issueId: 1 }, { unique: true });
  schema.index({ epicId: 1, relativePosition: 1 });
  const links = defineModel(deps.models.noteables.db, 'EpicIssue', schema, 'epic_issues');

  async function nextPosition(epicId: number): Promise<number> {
    const last = await links.findOne({ epicId }).sort({ relativePosition: -1 }).lean<EpicIssueDoc>();
    return last ? last.relativePosition + 1 : 0;
  }

  return {
    ofEpic: (epicId: number) =>
      links.find({ epicId }).sort({ relativePosition: 1, _id: 1 }).lean<EpicIssueDoc[]>(),
    find: (id: number) => links.findById(id).lean<EpicIssueDoc>(),
    ofIssue: (issueId: number) => links.findOne({ issueId }).lean<EpicIssueDoc>(),
    /** Adds the issue at the end of the epic; an issue of another epic moves (its link is re-pointed). */
    async assign(epicId: number, issueId: number): Promise<EpicIssueDoc | 'already'> {
      const current = await links.findOne({ issueId }).lean<EpicIssueDoc>();
      if (current?.epicId === epicId) return 'already';
      // Before the link: a reader finding no hint on the issue never looks for a link (mayHaveEpic).
      if (!current) await deps.models.noteables.updateOne({ _id: issueId }, { $set: { mayHaveEpic: true } });
      const relativePosition = await nextPosition(epicId);
      if (current) {
        await links.updateOne({ _id: current._id }, { $set: { epicId, relativePosition } });
        return { ...current, epicId, relativePosition };
      }
      const doc: EpicIssueDoc = {
        _id: await deps.counters.next('epic_issue'),
        epicId,
        issueId,
        relativePosition,
        createdAt: new Date(),
      };
      try {
        await links.create(doc);
      } catch (err) {
        // A concurrent request linked it first: as GitLab's unique index, the second one is refused.
        if (isDuplicateKeyError(err)) return 'already';
        throw err;
      }
      return doc;
    },
    remove: (id: number) => links.deleteOne({ _id: id }),
  };
}

export type EpicIssues = ReturnType<typeof createEpicIssues>;
