import type { MilestoneDoc, NoteableDoc } from './discussions.models';
import type { NotesDeps } from './notes.service';

/** What an issue or merge request shows besides its own document: its milestone and user_notes_count. */
export function createIssuableExtras(deps: Pick<NotesDeps, 'models'>) {
  const { models } = deps;
  return {
    /** GitLab's user_notes_count: comments, not system notes; internal ones only for who reads them. */
    async userNotesCount(doc: NoteableDoc, withInternal: boolean) {
      const filter: Record<string, unknown> = { noteableType: doc.kind, noteableId: doc._id, system: false };
      if (!withInternal) filter.internal = { $ne: true };
      return models.notes.countDocuments(filter);
    },
    async milestone(id: number | null) {
      return id ? models.milestones.findById(id).lean() : null;
    },
    /**
     * Milestone and user_notes_count of every issuable of a page, in two queries whatever its size (one
     * count and one milestone read per item made a 20-issue page 40 queries). `withInternal` says per item
     * whether the caller reads internal notes.
     */
    async pageExtras(docs: NoteableDoc[], withInternal: (doc: NoteableDoc) => boolean) {
      const milestoneIds = [...new Set(docs.flatMap((d) => (d.milestoneId ? [d.milestoneId] : [])))];
      const [milestones, counts] = await Promise.all([
        milestoneIds.length > 0
          ? models.milestones.find({ _id: { $in: milestoneIds } }).lean<MilestoneDoc[]>()
          : Promise.resolve([]),
        docs.length > 0
          ? models.notes.aggregate<{ _id: { noteable: number; internal: boolean | null }; n: number }>([
              {
                $match: {
                  noteableType: docs[0]!.kind,
                  noteableId: { $in: docs.map((d) => d._id) },
                  system: false,
                },
              },
              { $group: { _id: { noteable: '$noteableId', internal: '$internal' }, n: { $sum: 1 } } },
            ])
          : Promise.resolve([]),
      ]);
      const milestoneById = new Map(milestones.map((m) => [m._id, m]));
      return new Map(
        docs.map((doc) => {
          const internalToo = withInternal(doc);
          const userNotesCount = counts
            .filter((c) => c._id.noteable === doc._id && (internalToo || c._id.internal !== true))
            .reduce((sum, c) => sum + c.n, 0);
          return [doc._id, { milestone: milestoneById.get(doc.milestoneId ?? -1) ?? null, userNotesCount }];
        }),
      );
    },
  };
}
