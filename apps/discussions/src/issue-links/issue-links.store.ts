import { insertUnique } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import { pairOf, type IssueLinkDoc } from './issue-link.model';

/** Every read and write of the `issue_links` collection. */
export function createIssueLinksStore(models: Pick<DiscussionsModels, 'issueLinks' | 'projects'>) {
  const links = models.issueLinks;

  return {
    /** Every link of the issue, from either side, oldest first (GitLab's `reorder('issue_link_id')`). */
    async ofIssue(issueId: number): Promise<IssueLinkDoc[]> {
      const [outgoing, incoming] = await Promise.all([
        links.find({ sourceId: issueId }).sort({ _id: 1 }).lean<IssueLinkDoc[]>(),
        links.find({ targetId: issueId }).sort({ _id: 1 }).lean<IssueLinkDoc[]>(),
      ]);
      return [...outgoing, ...incoming].sort((a, b) => a._id - b._id);
    },

    /** `IssueLink.for_source_or_target(issue).find(id)`. */
    async ofIssueById(issueId: number, linkId: number): Promise<IssueLinkDoc | null> {
      const link = await links.findOne({ _id: linkId }).lean<IssueLinkDoc>();
      return link && (link.sourceId === issueId || link.targetId === issueId) ? link : null;
    },

    /** Inserts a link; null when the pair is already linked either way (the unique `pair` index). */
    async insert(doc: Omit<IssueLinkDoc, 'pair'>): Promise<IssueLinkDoc | null> {
      const stored = { ...doc, pair: pairOf(doc.sourceId, doc.targetId) };
      return (await insertUnique(links, stored)) ? stored : null;
    },

    async remove(linkId: number): Promise<void> {
      await links.deleteOne({ _id: linkId });
    },

    /** The id of the project with this full path (discussions' copy of projects), or null. */
    async projectByPath(fullPath: string): Promise<number | null> {
      const found = await models.projects
        .findOne({ fullPath, destroyed: { $ne: true } }, { _id: 1 })
        .lean<{ _id: number }>();
      return found?._id ?? null;
    },
  };
}

export type IssueLinksStore = ReturnType<typeof createIssueLinksStore>;
