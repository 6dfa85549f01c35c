import type { NoteableTypeName } from '@gl/contracts';
import type { AccessTarget } from '@gl/service-kit';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { CommitDoc } from '../commits/commit.model';
import { accessTargetOf } from '../common/access';

/** What a note hangs on: an issue, merge request, snippet or epic by database id, or a commit by SHA. */
export interface NoteTarget {
  type: NoteableTypeName;
  projectId: number | null;
  groupId: number | null;
  noteableId: number | null;
  noteableIid: number | null;
  commitSha: string | null;
  /** The event's target_title: the noteable's title, or the commit title. */
  title: string;
  authorId: number;
  /** What the read rule needs about the noteable (its kind and audience); its notes' events carry it. */
  access: AccessTarget;
}

export function targetOfNoteable(doc: NoteableDoc): NoteTarget {
  return {
    type: doc.kind,
    projectId: doc.projectId,
    groupId: doc.groupId,
    noteableId: doc._id,
    noteableIid: doc.kind === 'Issue' || doc.kind === 'MergeRequest' ? doc.iid : null,
    commitSha: null,
    title: doc.title,
    authorId: doc.author.id,
    access: accessTargetOf(doc),
  };
}

export function targetOfCommit(commit: CommitDoc): NoteTarget {
  return {
    type: 'Commit',
    projectId: commit.projectId,
    groupId: null,
    noteableId: null,
    noteableIid: null,
    commitSha: commit._id,
    title: commit.title,
    // A commit's author is a name and e-mail, not an account: nobody resolves as "the noteable's author".
    authorId: -1,
    access: { kind: 'Code' },
  };
}
