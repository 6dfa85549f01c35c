import type { UserSummary } from '@gl/contracts';
import { knownUser, userSummary } from '@gl/service-kit';
import type { NoteDoc } from '../notes/note.model';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { DiscussionsDeps } from '../discussions.models';
import { MENTION } from '../noteables/participation';
import { removeDependents } from '../noteables/noteable-dependents';

/**
 * Issues::ReferencedMergeRequestsService's default closing pattern (Gitlab.config.gitlab.issue_closing_pattern):
 * a keyword, an optional colon, then one or more issue references separated by commas or "and".
 */
const CLOSING =
  /\b(?:clos(?:e[sd]?|ing)|fix(?:e[sd]|ing)?|resolv(?:e[sd]?|ing)|implement(?:s|ed|ing)?):? +(?:issues? +)?((?:[\w./-]*#\d+(?: *,? +and +| *,? *)?)+)/gi;

/** `#12` or `group/project#12`, not `&12`, `!12` or a word ending in `#`. */
const ISSUE_REFERENCE = /(?:^|[^\w&!#/.-])([\w./-]*)#(\d+)\b/g;
const MERGE_REQUEST_REFERENCE = /(?:^|[^\w&!#/.-])([\w./-]*)!(\d+)\b/g;

function* referencesIn(pattern: RegExp, text: string, fullPath: string): Generator<number> {
  for (const match of text.matchAll(pattern)) {
    // A reference to another project (`other/project#1`) names another issue.
    if (match[1] === '' || match[1] === fullPath) yield Number(match[2]);
  }
}

/** The issue iids a text closes (GitLab's ClosingIssueExtractor, local references only). */
export function closedIssueIids(text: string | null, fullPath: string): Set<number> {
  const iids = new Set<number>();
  for (const match of (text ?? '').matchAll(CLOSING)) {
    for (const iid of referencesIn(ISSUE_REFERENCE, ` ${match[1]}`, fullPath)) iids.add(iid);
  }
  return iids;
}

export function mentionsIssue(text: string | null, iid: number, fullPath: string): boolean {
  return [...referencesIn(ISSUE_REFERENCE, text ?? '', fullPath)].includes(iid);
}

/** Who takes part in an issue, and the merge requests that close or mention it; its deletion. */
export function createIssueRelations(deps: Pick<DiscussionsDeps, 'models'>) {
  const { noteables, notes, users } = deps.models;

  async function notesOf(issue: NoteableDoc): Promise<NoteDoc[]> {
    return notes
      .find({ noteableType: issue.kind, noteableId: issue._id })
      .sort({ createdAt: 1, _id: 1 })
      .lean<NoteDoc[]>();
  }

  /** Merge requests of the issue's project whose title, description or comments hold `pattern`. */
  async function mergeRequestsMatching(projectId: number, pattern: string): Promise<NoteableDoc[]> {
    const regex = { $regex: pattern };
    const fromNotes = await notes
      .find({ noteableType: 'MergeRequest', projectId, system: false, body: regex })
      .select({ noteableId: 1 })
      .lean<Pick<NoteDoc, 'noteableId'>[]>();
    const noteIds = [...new Set(fromNotes.flatMap((n) => (n.noteableId ? [n.noteableId] : [])))];
    return noteables
      .find({
        kind: 'MergeRequest',
        projectId,
        $or: [{ description: regex }, { title: regex }, { _id: { $in: noteIds } }],
      })
      .lean<NoteableDoc[]>();
  }

  /**
   * ReferencedMergeRequestsService#closed_by_merge_requests: nothing for a closed issue; else the merge
   * requests (not merged or closed ones: MergeRequestsClosingIssues is kept for open ones) whose
   * description closes it, by iid.
   */
  async function closingMergeRequests(issue: NoteableDoc, fullPath: string): Promise<NoteableDoc[]> {
    if (issue.state !== 'opened') return [];
    const candidates = await noteables
      .find({
        kind: 'MergeRequest',
        projectId: issue.projectId,
        state: 'opened',
        description: { $regex: `#${issue.iid}(\\D|$)` },
      })
      .lean<NoteableDoc[]>();
    return candidates
      .filter((mr) => closedIssueIids(mr.description, fullPath).has(issue.iid!))
      .sort((a, b) => a.iid! - b.iid!);
  }

  return {
    closingMergeRequests,
    /**
     * Issuable's participants (`participant :author`, `:notes_with_associations`, `:assignees`): the
     * author, each note's author and the users its notes and description mention, then the assignees, each
     * once in the order first met. `readsNote` leaves out internal notes the caller may not read.
     */
    async participants(
      issue: NoteableDoc,
      readsNote: (note: NoteDoc) => boolean,
      webUrlOf: (username: string) => string,
    ): Promise<UserSummary[]> {
      const issueNotes = (await notesOf(issue)).filter(readsNote);
      const known = new Map<number, UserSummary>([[issue.author.id, issue.author]]);
      const order: Array<number | string> = [issue.author.id];
      const mentioned = (text: string | null) => {
        for (const match of (text ?? '').matchAll(MENTION)) order.push(match[1]!);
      };
      mentioned(issue.description);
      for (const note of issueNotes) {
        if (!known.has(note.author.id)) known.set(note.author.id, note.author);
        order.push(note.author.id);
        if (!note.system) mentioned(note.body);
      }
      order.push(...issue.assigneeIds);
      const ids = order.filter((o): o is number => typeof o === 'number' && !known.has(o));
      const names = order.filter((o): o is string => typeof o === 'string');
      // Two indexed reads (an $or of both is a whole-table scan on FerretDB).
      type Known = { _id: number; username: string; name: string; email?: string };
      const [byId, named] = await Promise.all([
        ids.length ? users.find({ _id: { $in: ids }, destroyed: { $ne: true } }).lean<Known[]>() : [],
        names.length
          ? users
              .find({
                username: { $in: [...new Set(names.flatMap((n) => [n, n.toLowerCase()]))] },
                destroyed: { $ne: true },
              })
              .lean<Known[]>()
          : [],
      ]);
      const found = [...byId, ...named];
      const byName = new Map(found.map((u) => [u.username.toLowerCase(), u._id]));
      for (const user of found) {
        if (known.has(user._id)) continue;
        // The kit's summary: the copy's address gives the same avatar_url as the gateway's.
        const summary = userSummary(knownUser(user), '');
        known.set(user._id, Object.assign(summary, { web_url: webUrlOf(summary.username) }));
      }
      const seen = new Set<number>();
      const result: UserSummary[] = [];
      for (const entry of order) {
        const id = typeof entry === 'number' ? entry : byName.get(entry.toLowerCase());
        const user = id === undefined ? undefined : known.get(id);
        if (!user || seen.has(user.id)) continue;
        seen.add(user.id);
        result.push(user);
      }
      return result;
    },

    /**
     * ReferencedMergeRequestsService#execute: the merge requests the issue and its notes reference (`!3`)
     * and those that mention it (GitLab's cross-reference notes: their title, description or a comment),
     * by iid, then the ones closing it; each once.
     */
    async relatedMergeRequests(
      issue: NoteableDoc,
      fullPath: string,
      readsNote: (note: NoteDoc) => boolean,
    ): Promise<NoteableDoc[]> {
      const texts = [
        issue.description,
        ...(await notesOf(issue)).filter((n) => !n.system && readsNote(n)).map((n) => n.body),
      ];
      const referencedIids = new Set(
        texts.flatMap((t) => [...referencesIn(MERGE_REQUEST_REFERENCE, t ?? '', fullPath)]),
      );
      const [referenced, mentioning] = await Promise.all([
        noteables
          .find({ kind: 'MergeRequest', projectId: issue.projectId, iid: { $in: [...referencedIids] } })
          .lean<NoteableDoc[]>(),
        mergeRequestsMatching(issue.projectId!, `#${issue.iid}(\\D|$)`),
      ]);
      const byIid = new Map<number, NoteableDoc>();
      for (const mr of referenced) byIid.set(mr.iid!, mr);
      for (const mr of mentioning) {
        const noteTexts = await notes
          .find({ noteableType: 'MergeRequest', noteableId: mr._id, system: false })
          .select({ body: 1 })
          .lean<Pick<NoteDoc, 'body'>[]>();
        const texts = [mr.title, mr.description, ...noteTexts.map((n) => n.body)];
        if (texts.some((t) => mentionsIssue(t, issue.iid!, fullPath))) byIid.set(mr.iid!, mr);
      }
      const related = [...byIid.values()].sort((a, b) => a.iid! - b.iid!);
      const closing = await closingMergeRequests(issue, fullPath);
      return [...related, ...closing.filter((mr) => !byIid.has(mr.iid!))];
    },

    /**
     * Issues::DestroyService: the issue, its notes, its place in an epic, its subscriptions, and what
     * GitLab's foreign keys cascade: its and its notes' award emoji, its links, its resource events.
     */
    async destroyIssue(issue: NoteableDoc): Promise<void> {
      await removeDependents(noteables, notes, 'Issue', issue._id);
      await noteables.db.collection('issue_links').deleteMany({ sourceId: issue._id });
      await noteables.db.collection('issue_links').deleteMany({ targetId: issue._id });
      await noteables.db.collection('resource_events').deleteMany({ resourceId: issue._id });
      await notes.deleteMany({ noteableType: 'Issue', noteableId: issue._id });
      await noteables.db.collection('epic_issues').deleteMany({ issueId: issue._id });
      await noteables.db.collection('issuable_subscriptions').deleteMany({ noteableId: issue._id });
      await noteables.deleteOne({ _id: issue._id, kind: 'Issue' });
      // Its label and assignee entries last: until then they still name an issue (noteable-words.store.ts).
      await noteables.db.collection('noteable_words').deleteMany({ noteableId: issue._id });
    },
  };
}
