import type { IssueEntity, UserSummary } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { EpicIssues } from './epic-issues';
import { targetOfNoteable } from '../notes/note-target';
import type { NotesService } from '../notes/notes.service';

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
      // Only issues ever linked to an epic can have one (NoteableDoc.mayHaveEpic): most pages read nothing.
      const linkable = issues.filter((i) => i.mayHaveEpic);
      if (linkable.length === 0) return out;
      const found = await links.find({ issueId: { $in: linkable.map((i) => i._id) } }).toArray();
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

/** The project of an issue as the references of GitLab's epic notes need it. */
export interface IssueProjectRef {
  path: string;
  fullPath: string;
  /** Root first; the project's own group last. */
  ancestorGroupIds: number[];
}

const ownGroupOf = (project: IssueProjectRef): number | null => project.ancestorGroupIds.at(-1) ?? null;

/** Issue#to_reference(group): the project's path in its own group, its full path from any other. */
export function issueReferenceIn(issueIid: number, project: IssueProjectRef, groupId: number): string {
  return `${ownGroupOf(project) === groupId ? project.path : project.fullPath}#${issueIid}`;
}

/**
 * Epic#to_reference(from): `&iid` from the epic's own group or a project directly in it, else the group's
 * full path before it. Every epic here is of one of the project's ancestor groups.
 */
export function epicReferenceFrom(
  epic: NoteableDoc,
  project: IssueProjectRef,
  from: Pick<NoteableDoc, 'groupId'> | 'project',
): string {
  const local = from === 'project' ? ownGroupOf(project) === epic.groupId : from.groupId === epic.groupId;
  return local ? `&${epic.iid}` : `${ancestorPathOf(project, epic.groupId!) ?? epic.groupId}&${epic.iid}`;
}

/** One system note to write: on which noteable, with which body. */
export interface EpicLinkNote {
  on: NoteableDoc;
  body: string;
}

/**
 * The system notes of EpicIssues::CreateService / DestroyService (EE::SystemNotes::EpicsService):
 * added to an epic (`epic_issue`, `issue_on_epic`), moved from another (`epic_issue_moved` on both epics,
 * `issue_epic_change`), taken out (the same two, `removed`).
 */
export function epicLinkNotes(
  issue: NoteableDoc,
  project: IssueProjectRef,
  change: { from: NoteableDoc | null; to: NoteableDoc | null },
): EpicLinkNote[] {
  const { from, to } = change;
  const ref = (epic: NoteableDoc) => issueReferenceIn(issue.iid!, project, epic.groupId!);
  if (to && from) {
    return [
      { on: to, body: `added issue ${ref(from)} from epic ${epicReferenceFrom(from, project, to)}` },
      { on: from, body: `moved issue ${ref(to)} to epic ${epicReferenceFrom(to, project, from)}` },
      { on: issue, body: `changed epic to ${epicReferenceFrom(to, project, 'project')}` },
    ];
  }
  const epic = to ?? from;
  if (!epic) return [];
  const verb = to ? 'added' : 'removed';
  return [
    { on: epic, body: `${verb} issue ${ref(epic)}` },
    { on: issue, body: `${verb} ${to ? 'to' : 'from'} epic ${epicReferenceFrom(epic, project, 'project')}` },
  ];
}

/**
 * EE Issues::BaseService#handle_epic: puts the issue in the epic (moving it from another one) or takes it
 * out of its epic (null), and writes the system notes of EpicIssues::CreateService / DestroyService. The
 * issue's own epic again changes nothing.
 */
export function createIssueEpicSetter(deps: {
  epicIssues: EpicIssues;
  notes: Pick<NotesService, 'createSystemNote'>;
  findById: (id: number) => Promise<NoteableDoc | null>;
}) {
  return async function setIssueEpic(
    origin: EventOrigin,
    issue: NoteableDoc,
    epic: NoteableDoc | null,
    actor: UserSummary,
    project: IssueProjectRef,
  ): Promise<void> {
    const link = await deps.epicIssues.ofIssue(issue._id);
    if (epic ? link?.epicId === epic._id : !link) return;
    const previous = link ? await deps.findById(link.epicId) : null;
    if (epic) {
      if ((await deps.epicIssues.assign(epic._id, issue._id)) === 'already') return;
    } else {
      await deps.epicIssues.remove(link!._id);
    }
    const from = previous?.kind === 'Epic' ? previous : null;
    for (const note of epicLinkNotes(issue, project, { from, to: epic })) {
      await deps.notes.createSystemNote(origin, targetOfNoteable(note.on), actor, note.body);
    }
  };
}
