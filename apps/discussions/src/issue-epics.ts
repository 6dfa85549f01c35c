import type { IssueEntity } from '@gl/contracts';
import type { DiscussionsModels, NoteableDoc } from './discussions.models';

/** An issue's epic as EE::API::Entities::Issue shows it (`epic_iid` and EpicBaseEntity). */
export function epicFieldsOf(
  epic: NoteableDoc | null,
  groupPath: string | null,
  externalUrl: string,
): Pick<IssueEntity, 'epic_iid' | 'epic'> {
  if (!epic) return { epic_iid: null, epic: null };
  const base = externalUrl.replace(/\/+$/, '');
  return {
    epic_iid: epic.iid!,
    epic: {
      id: epic._id,
      iid: epic.iid!,
      title: epic.title,
      url: `${base}/groups/${groupPath ?? epic.groupId}/-/epics/${epic.iid}`,
      group_id: epic.groupId!,
    },
  };
}

/** The path of one of a project's ancestor groups: the project's path begins with theirs, root first. */
export function ancestorPathOf(
  project: { fullPath: string; ancestorGroupIds: number[] },
  groupId: number,
): string | null {
  const index = project.ancestorGroupIds.indexOf(groupId);
  return index < 0
    ? null
    : project.fullPath
        .split('/')
        .slice(0, index + 1)
        .join('/');
}

/** The epics of a page of issues, in three reads whatever its size (none past the links when none has one). */
export function createIssueEpics(models: Pick<DiscussionsModels, 'noteables' | 'projects'>) {
  const links = models.noteables.db.collection<{ issueId: number; epicId: number }>('epic_issues');
  return {
    async ofIssues(
      issues: NoteableDoc[],
    ): Promise<Map<number, { epic: NoteableDoc; groupPath: string | null }>> {
      const out = new Map<number, { epic: NoteableDoc; groupPath: string | null }>();
      if (issues.length === 0) return out;
      const found = await links.find({ issueId: { $in: issues.map((i) => i._id) } }).toArray();
      if (found.length === 0) return out;
      const projectIds = [...new Set(issues.map((i) => i.projectId!))];
      const [epics, projects] = await Promise.all([
        models.noteables
          .find({ _id: { $in: [...new Set(found.map((l) => l.epicId))] }, kind: 'Epic' })
          .lean<NoteableDoc[]>(),
        models.projects
          .find({ _id: { $in: projectIds } }, { fullPath: 1, ancestorGroupIds: 1 })
          .lean<{ _id: number; fullPath: string; ancestorGroupIds: number[] }[]>(),
      ]);
      const epicById = new Map(epics.map((e) => [e._id, e]));
      const projectById = new Map(projects.map((p) => [p._id, p]));
      const issueById = new Map(issues.map((i) => [i._id, i]));
      for (const link of found) {
        const epic = epicById.get(link.epicId);
        const project = projectById.get(issueById.get(link.issueId)?.projectId ?? -1);
        if (!epic) continue;
        out.set(link.issueId, { epic, groupPath: project ? ancestorPathOf(project, epic.groupId!) : null });
      }
      return out;
    },
  };
}
