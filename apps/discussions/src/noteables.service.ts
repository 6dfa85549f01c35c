import { DOMAIN_EVENT_TYPES, type UserSummary } from '@gl/contracts';
import { HttpError, createEvent, pushEvents, withEvents, type EventOrigin } from '@gl/service-kit';
import type { DiffRefs, NoteableDoc, NoteableKind } from './discussions.models';
import { actorOf } from './discussions.access';
import { createCommitsService } from './commits.service';
import { createIncidentsService } from './incidents.service';
import { createIssuableExtras } from './issuable-extras';
import {
  blankNoteable,
  placeholderSha,
  targetData,
  targetOfNoteable,
  type IssueInput,
  type IssueUpdate,
} from './noteable-documents';
import type { NotesDeps, NotesService } from './notes.service';
import { createDiscussionsProjections } from './projections';
import { assigneesChangeNote, titleChangeNote } from './system-notes';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

/** Milestone#to_reference(format: :name) for group milestones: `%"title"`, or `%iid` when the title has a quote. */
function milestoneReference(milestone: { iid: number | null; title: string }): string {
  return milestone.title.includes('"') ? `%${milestone.iid}` : `%"${milestone.title}"`;
}

/** Which noteables of a list the caller may read; `all` when they read every one (no per-item check). */
export type ListVisibility = 'all' | ((doc: NoteableDoc) => boolean);

/** The fields the read rule looks at: what a list reads of every candidate before it reads the page. */
const AUDIENCE_FIELDS = { _id: 1, kind: 1, confidential: 1, visibility: 1, author: 1, assigneeIds: 1 };

export function createNoteablesService(deps: NotesDeps, notes: NotesService) {
  const { models, counters, outbox } = deps;
  const commits = createCommitsService(deps);
  const { branchHead, createCommit } = commits;

  async function insert(
    origin: EventOrigin,
    doc: NoteableDoc,
    type: string,
    extra: ReturnType<typeof createEvent>[] = [],
  ): Promise<NoteableDoc> {
    const event = createEvent(origin, {
      type,
      actor: actorOf(doc.author),
      projectId: doc.projectId,
      groupId: doc.groupId,
      data: targetData(doc),
    });
    await models.noteables.create(withEvents(doc, [event, ...extra]));
    outbox.kick();
    return doc;
  }

  async function findByIid(
    kind: NoteableKind,
    scope: 'projectId' | 'groupId',
    parentId: number,
    iid: number,
  ) {
    return models.noteables.findOne({ kind, [scope]: parentId, iid }).lean<NoteableDoc>();
  }

  /**
   * A page of noteables, newest first. When the caller may not read all of them, the readable ones are
   * found first from their audience fields only (the rule is checked in process, the same function every
   * service uses), so the page and X-Total count only those; then the page's documents are read.
   */
  async function list(
    kind: NoteableKind,
    scope: 'projectId' | 'groupId',
    parentId: number,
    state: string | undefined,
    skip: number,
    limit: number,
    iids?: number[],
    visible: ListVisibility = 'all',
  ): Promise<{ items: NoteableDoc[]; total: number }> {
    const filter: Record<string, unknown> = { kind, [scope]: parentId };
    if (state && state !== 'all') filter.state = state;
    if (iids) filter.iid = { $in: iids };
    if (visible === 'all') {
      const [items, total] = await Promise.all([
        models.noteables.find(filter).sort({ _id: -1 }).skip(skip).limit(limit).lean<NoteableDoc[]>(),
        models.noteables.countDocuments(filter),
      ]);
      return { items, total };
    }
    const candidates = await models.noteables.find(filter).select(AUDIENCE_FIELDS).lean<NoteableDoc[]>();
    const readable = candidates.filter(visible).sort((a, b) => b._id - a._id);
    const ids = readable.slice(skip, skip + limit).map((doc) => doc._id);
    const items = ids.length ? await models.noteables.find({ _id: { $in: ids } }).lean<NoteableDoc[]>() : [];
    return { items: items.sort((a, b) => b._id - a._id), total: readable.length };
  }

  async function milestoneNote(milestoneId: number | null): Promise<string> {
    if (!milestoneId) return 'removed milestone';
    const milestone = await models.milestones.findById(milestoneId).lean();
    return `changed milestone to ${milestone ? milestoneReference(milestone) : `%${milestoneId}`}`;
  }

  /**
   * Usernames of the given users, in that order, from the identity projection; the acting user is known
   * from the request. A user the projection has not seen yet is left out of the note.
   */
  async function usernames(ids: number[], actor: UserSummary): Promise<string[]> {
    if (ids.length === 0) return [];
    const known = await models.users.find({ _id: { $in: ids } }).lean();
    const byId = new Map<number, string>(known.map((u) => [u._id, u.username]));
    byId.set(actor.id, actor.username);
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async function assigneesNote(before: number[], after: number[], actor: UserSummary) {
    const added = after.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !after.includes(id));
    return assigneesChangeNote(await usernames(added, actor), await usernames(removed, actor));
  }

  /** Applies field changes and a state event; writes GitLab's system notes; carries the state event. */
  async function update(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    changes: Partial<
      Pick<
        NoteableDoc,
        'title' | 'description' | 'labels' | 'milestoneId' | 'assigneeIds' | 'mergeCommitSha' | 'confidential'
      >
    >,
    stateEvent: 'close' | 'reopen' | 'merge' | undefined,
    eventTypes: { close: string; reopen: string; merge?: string },
  ): Promise<NoteableDoc> {
    const now = new Date();
    const set: Record<string, unknown> = { updatedAt: now };
    const systemNotes: string[] = [];
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      set[key] = value;
    }
    if (changes.title !== undefined && changes.title !== doc.title) {
      systemNotes.push(titleChangeNote(doc.title, changes.title));
    }
    if (changes.description !== undefined && changes.description !== doc.description) {
      systemNotes.push('changed the description');
    }
    if (changes.assigneeIds !== undefined) {
      const note = await assigneesNote(doc.assigneeIds, changes.assigneeIds, actor);
      if (note) systemNotes.push(note);
    }
    if (changes.milestoneId !== undefined && changes.milestoneId !== doc.milestoneId) {
      systemNotes.push(await milestoneNote(changes.milestoneId));
    }
    if (changes.confidential !== undefined && changes.confidential !== (doc.confidential ?? false)) {
      // SystemNoteService#change_issue_confidentiality.
      systemNotes.push(
        changes.confidential ? 'made the issue confidential' : 'made the issue visible to everyone',
      );
    }
    let eventType: string | null = null;
    if (stateEvent === 'close' && doc.state === 'opened') {
      Object.assign(set, { state: 'closed', closedAt: now, closedBy: actor });
      systemNotes.push('closed');
      eventType = eventTypes.close;
    } else if (stateEvent === 'reopen' && doc.state === 'closed') {
      Object.assign(set, { state: 'opened', closedAt: null, closedBy: null });
      systemNotes.push('reopened');
      eventType = eventTypes.reopen;
    } else if (stateEvent === 'merge' && doc.state === 'opened' && eventTypes.merge) {
      Object.assign(set, { state: 'merged', mergedAt: now, mergedBy: actor });
      systemNotes.push('merged');
      eventType = eventTypes.merge;
    }
    const updated = { ...doc, ...set };
    const events = eventType
      ? [
          createEvent(origin, {
            type: eventType,
            actor: actorOf(actor),
            projectId: doc.projectId,
            groupId: doc.groupId,
            data: targetData(updated),
          }),
        ]
      : [];
    await models.noteables.updateOne({ _id: doc._id }, pushEvents({ $set: set }, events));
    if (events.length > 0) outbox.kick();
    const target = targetOfNoteable(updated);
    for (const body of systemNotes) await notes.createSystemNote(origin, target, actor, body);
    return updated;
  }

  async function createIssue(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    input: IssueInput,
    createdAt: Date | null,
  ): Promise<NoteableDoc> {
    const id = await counters.next('noteable');
    const iid = await counters.next(`issues:${projectId}`);
    const doc = blankNoteable('Issue', id, iid, author, input.title);
    Object.assign(doc, {
      projectId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      milestoneId: input.milestone_id || null,
      assigneeIds: input.assignee_ids ?? [],
      issueType: input.issue_type ?? 'issue',
      confidential: input.confidential ?? false,
    });
    if (createdAt) Object.assign(doc, { createdAt, updatedAt: createdAt });
    return insert(origin, doc, EVENTS.issueOpened);
  }

  function updateIssue(origin: EventOrigin, doc: NoteableDoc, actor: UserSummary, input: IssueUpdate) {
    return update(
      origin,
      doc,
      actor,
      {
        title: input.title,
        description: input.description,
        labels: input.labels,
        milestoneId: input.milestone_id === undefined ? undefined : input.milestone_id || null,
        assigneeIds: input.assignee_ids,
        confidential: input.confidential,
      },
      input.state_event,
      { close: EVENTS.issueClosed, reopen: EVENTS.issueReopened },
    );
  }

  async function createMergeRequest(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    input: {
      source_branch: string;
      target_branch: string;
      title: string;
      description?: string;
      labels?: string[];
      milestone_id?: number;
    },
  ): Promise<NoteableDoc> {
    if (input.source_branch === input.target_branch) {
      throw new HttpError(422, { message: ["You can't use same project/branch for source and target"] });
    }
    const open = await models.noteables
      .findOne({
        kind: 'MergeRequest',
        projectId,
        state: 'opened',
        sourceBranch: input.source_branch,
        targetBranch: input.target_branch,
      })
      .lean<NoteableDoc>();
    if (open) {
      throw new HttpError(409, {
        message: [`Another open merge request already exists for this source branch: !${open.iid}`],
      });
    }
    const base =
      (await branchHead(projectId, input.target_branch)) ?? placeholderSha(projectId, input.target_branch);
    const head =
      (await branchHead(projectId, input.source_branch)) ?? placeholderSha(projectId, input.source_branch);
    const diffRefs: DiffRefs = { baseSha: base, startSha: base, headSha: head };
    const id = await counters.next('noteable');
    const iid = await counters.next(`merge_requests:${projectId}`);
    const doc = blankNoteable('MergeRequest', id, iid, author, input.title);
    Object.assign(doc, {
      projectId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      milestoneId: input.milestone_id || null,
      sourceBranch: input.source_branch,
      targetBranch: input.target_branch,
      diffRefs,
    });
    return insert(origin, doc, EVENTS.mergeRequestOpened);
  }

  const mrEvents = {
    close: EVENTS.mergeRequestClosed,
    reopen: EVENTS.mergeRequestReopened,
    merge: EVENTS.mergeRequestMerged,
  };

  function updateMergeRequest(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    input: Omit<IssueUpdate, 'issue_type'>,
  ) {
    return update(
      origin,
      doc,
      actor,
      {
        title: input.title,
        description: input.description,
        labels: input.labels,
        milestoneId: input.milestone_id === undefined ? undefined : input.milestone_id || null,
        assigneeIds: input.assignee_ids,
      },
      input.state_event,
      mrEvents,
    );
  }

  /** Merging records GitLab's merge commit on the target branch (a push there), then marks the MR merged. */
  async function mergeMergeRequest(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    authorEmail: string,
    projectPath: string,
  ) {
    const projectId = doc.projectId!;
    const sourceHead = (await branchHead(projectId, doc.sourceBranch!)) ?? doc.diffRefs!.headSha;
    const merge = await createCommit(
      origin,
      projectId,
      actor,
      authorEmail,
      {
        branch: doc.targetBranch!,
        commit_message:
          `Merge branch '${doc.sourceBranch}' into '${doc.targetBranch}'\n\n${doc.title}\n\n` +
          `See merge request ${projectPath}!${doc.iid}`,
      },
      [sourceHead],
    );
    return update(origin, doc, actor, { mergeCommitSha: merge._id }, 'merge', mrEvents);
  }

  async function createSnippet(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    input: { title: string; description?: string; file_name?: string; content?: string; visibility?: string },
  ): Promise<NoteableDoc> {
    const id = await counters.next('noteable');
    const doc = blankNoteable('Snippet', id, null, author, input.title);
    Object.assign(doc, {
      projectId,
      description: input.description ?? null,
      fileName: input.file_name ?? null,
      content: input.content ?? null,
      visibility: input.visibility ?? 'private',
    });
    return insert(origin, doc, EVENTS.snippetCreated);
  }

  async function createEpic(
    origin: EventOrigin,
    groupId: number,
    author: UserSummary,
    input: { title: string; description?: string; labels?: string[]; confidential?: boolean },
  ): Promise<NoteableDoc> {
    const id = await counters.next('noteable');
    const iid = await counters.next(`epics:${groupId}`);
    const doc = blankNoteable('Epic', id, iid, author, input.title);
    Object.assign(doc, {
      groupId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      confidential: input.confidential ?? false,
    });
    return insert(origin, doc, EVENTS.epicOpened);
  }

  /** Records a commit and moves the branch: first push to a branch is `created`, later ones `pushed`. */
  return {
    ...createIssuableExtras(deps),
    ...createDiscussionsProjections(deps),
    findByIid,
    list,
    createIssue,
    updateIssue,
    createMergeRequest,
    updateMergeRequest,
    mergeMergeRequest,
    createSnippet,
    createEpic,
    ...commits,
    ...createIncidentsService(deps, { insert, updateIssue }),
    async findSnippet(projectId: number, id: number) {
      return models.noteables.findOne({ kind: 'Snippet', projectId, _id: id }).lean<NoteableDoc>();
    },
    async findEpicById(groupId: number, id: number) {
      return models.noteables.findOne({ kind: 'Epic', groupId, _id: id }).lean<NoteableDoc>();
    },
  };
}

export type NoteablesService = ReturnType<typeof createNoteablesService>;
