import { DOMAIN_EVENT_TYPES, type UserSummary } from '@gl/contracts';
import { HttpError, createEvent, type EventOrigin } from '@gl/service-kit';
import type { DiffRefs, NoteableDoc, NoteableKind } from './discussions.models';
import { actorOf } from './discussions.access';
import { createCommitsService } from './commits.service';
import { createIncidentsService } from './incidents.service';
import { createIssuableExtras } from './issuable-extras';
import { createIssueRelations } from './issue-relations';
import { createSnippetEdits, snippetFileFields, type SnippetFile } from './snippets';
import { createEpicIssues } from './epic-issues';
import { createIssuableSubscriptions } from './issuable-subscriptions';
import { createIssueEpicSetter, createIssueEpics } from './issue-epics';
import { createReviewerFilter, reviewersChangeNote } from './issuable-reviewers';
import {
  blankNoteable,
  placeholderSha,
  targetData,
  targetOfNoteable,
  type IssueInput,
  type IssueUpdate,
  type MergeRequestInput,
} from './noteable-documents';
import { createNoteablesStore, type ListVisibility, type NoteableListFilter } from './noteables.store';
import type { NotesDeps, NotesService } from './notes.service';
import { createDiscussionsProjections } from './projections';
import { createIssuePositions } from './issue-positions';
import { createMilestoneCopies } from './milestone-copies';
import { createPositionsStore } from './positions.store';
import { assigneesChangeNote, titleChangeNote } from './system-notes';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

/** Milestone#to_reference(format: :name) for group milestones: `%"title"`, or `%iid` when the title has a quote. */
function milestoneReference(milestone: { iid: number | null; title: string }): string {
  return milestone.title.includes('"') ? `%${milestone.iid}` : `%"${milestone.title}"`;
}

export type { ListVisibility } from './noteables.store';

/** The fields an update of an issue or merge request may change. */
export type NoteableChanges = Partial<
  Pick<
    NoteableDoc,
    | 'title'
    | 'description'
    | 'labels'
    | 'milestoneId'
    | 'assigneeIds'
    | 'mergeCommitSha'
    | 'confidential'
    | 'dueDate'
    | 'discussionLocked'
    | 'issueType'
    | 'reviewerIds'
    | 'weight'
    | 'startDateFixed'
    | 'startDateIsFixed'
    | 'dueDateFixed'
    | 'dueDateIsFixed'
  >
>;

/** The changes an issue or merge request update asks for (`milestone_id: 0` removes the milestone). */
function changesOf(input: IssueUpdate): NoteableChanges {
  return {
    title: input.title,
    description: input.description,
    labels: input.labels,
    milestoneId: input.milestone_id === undefined ? undefined : input.milestone_id || null,
    assigneeIds: input.assignee_ids,
    confidential: input.confidential,
    dueDate: input.due_date,
    discussionLocked: input.discussion_locked,
    issueType: input.issue_type,
    reviewerIds: input.reviewer_ids,
    weight: input.weight,
  };
}

export function createNoteablesService(deps: NotesDeps, notes: NotesService) {
  const { counters } = deps;
  const store = createNoteablesStore(deps);
  const commits = createCommitsService(deps);
  const { branchHead, createCommit } = commits;
  const positions = createIssuePositions(createPositionsStore(deps.models));
  const milestoneCopies = createMilestoneCopies(deps.models);

  async function insert(
    origin: EventOrigin,
    doc: NoteableDoc,
    type: string,
    extra: ReturnType<typeof createEvent>[] = [],
    /** `once`: a document already stored under the id (a redelivered event wrote it) is left as it is. */
    options: { once: boolean } = { once: false },
  ): Promise<NoteableDoc> {
    const event = createEvent(origin, {
      type,
      actor: actorOf(doc.author),
      projectId: doc.projectId,
      groupId: doc.groupId,
      data: targetData(doc),
    });
    if (options.once) await store.insertOnce(doc, [event, ...extra]);
    else await store.insert(doc, [event, ...extra]);
    return doc;
  }

  /** A new noteable: the next database id and, for kinds that have one, the next iid of its counter. */
  async function draft(
    kind: NoteableKind,
    iidCounter: string | null,
    author: UserSummary,
    title: string,
    fields: Partial<NoteableDoc>,
  ): Promise<NoteableDoc> {
    const id = await counters.next('noteable');
    const iid = iidCounter ? await counters.next(iidCounter) : null;
    return Object.assign(blankNoteable(kind, id, iid, author, title), fields);
  }

  /** A page of noteables, newest first, of those the caller may read. */
  async function list(
    filter: NoteableListFilter,
    skip: number,
    limit: number,
    visible: ListVisibility = 'all',
  ): Promise<{ items: NoteableDoc[]; total: number }> {
    return store.page(filter, skip, limit, visible);
  }

  async function milestoneNote(milestoneId: number | null): Promise<string> {
    if (!milestoneId) return 'removed milestone';
    const milestone = await store.milestone(milestoneId);
    return `changed milestone to ${milestone ? milestoneReference(milestone) : `%${milestoneId}`}`;
  }

  /**
   * Usernames of the given users, in that order, from the identity projection; the acting user is known
   * from the request. A user the projection has not seen yet is left out of the note.
   */
  async function usernames(ids: number[], actor: UserSummary): Promise<string[]> {
    if (ids.length === 0) return [];
    const byId = await store.usernames(ids);
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
    changes: NoteableChanges,
    stateEvent: 'close' | 'reopen' | 'merge' | undefined,
    /** Null for kinds whose state changes publish no domain event (epics). */
    eventTypes: { close: string; reopen: string; merge?: string } | null,
    /** When the update happened: now, unless an Owner or admin says otherwise (`updated_at`). */
    at: Date | null = null,
  ): Promise<NoteableDoc> {
    const now = at ?? new Date();
    const set: Record<string, unknown> = { updatedAt: now };
    const systemNotes: string[] = [];
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      set[key] = value;
    }
    // The milestone's due date goes with it, for the milestone_due and priority orders.
    if (changes.milestoneId !== undefined)
      set.milestoneDue = await milestoneCopies.dueOf(changes.milestoneId);
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
    if (changes.reviewerIds !== undefined) {
      const before = doc.reviewerIds ?? [];
      const added = changes.reviewerIds.filter((id) => !before.includes(id));
      const removed = before.filter((id) => !changes.reviewerIds!.includes(id));
      const note = reviewersChangeNote(await usernames(added, actor), await usernames(removed, actor));
      if (note) systemNotes.push(note);
    }
    if (changes.milestoneId !== undefined && changes.milestoneId !== doc.milestoneId) {
      systemNotes.push(await milestoneNote(changes.milestoneId));
    }
    if (changes.confidential !== undefined && changes.confidential !== (doc.confidential ?? false)) {
      // SystemNoteService#change_issue_confidentiality.
      const what = doc.kind === 'Epic' ? 'epic' : 'issue';
      systemNotes.push(
        changes.confidential ? `made the ${what} confidential` : `made the ${what} visible to everyone`,
      );
    }
    if (
      changes.discussionLocked !== undefined &&
      changes.discussionLocked !== (doc.discussionLocked ?? false)
    ) {
      // SystemNoteService#discussion_lock.
      const what = doc.kind === 'MergeRequest' ? 'merge request' : 'issue';
      systemNotes.push(`${changes.discussionLocked ? 'locked' : 'unlocked'} the discussion in this ${what}`);
    }
    let eventType: string | null = null;
    if (stateEvent === 'close' && doc.state === 'opened') {
      Object.assign(set, { state: 'closed', closedAt: now, closedBy: actor });
      systemNotes.push('closed');
      eventType = eventTypes?.close ?? null;
    } else if (stateEvent === 'reopen' && doc.state === 'closed') {
      Object.assign(set, { state: 'opened', closedAt: null, closedBy: null });
      systemNotes.push('reopened');
      eventType = eventTypes?.reopen ?? null;
    } else if (stateEvent === 'merge' && doc.state === 'opened' && eventTypes?.merge) {
      Object.assign(set, { state: 'merged', mergedAt: now, mergedBy: actor });
      systemNotes.push('merged');
      eventType = eventTypes.merge ?? null;
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
    await store.update(doc._id, set, events);
    if (changes.milestoneId !== undefined) {
      await milestoneCopies.settle(doc._id, changes.milestoneId, set.milestoneDue as string | null);
    }
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
    /** Where the issue's board position is compared (issue-positions.ts); it goes after the last. */
    positionScope: string | null = null,
  ): Promise<NoteableDoc> {
    const doc = await draft('Issue', `issues:${projectId}`, author, input.title, {
      projectId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      milestoneId: input.milestone_id || null,
      milestoneDue: await milestoneCopies.dueOf(input.milestone_id),
      assigneeIds: input.assignee_ids ?? [],
      issueType: input.issue_type ?? 'issue',
      confidential: input.confidential ?? false,
      dueDate: input.due_date ?? null,
      ...(input.weight !== undefined && { weight: input.weight }),
    });
    if (createdAt) Object.assign(doc, { createdAt, updatedAt: createdAt });
    if (positionScope) {
      const position = await positions.claimAtEnd(positionScope, doc._id);
      Object.assign(doc, { positionScope, relativePosition: position });
    }
    await insert(origin, doc, EVENTS.issueOpened);
    await milestoneCopies.settle(doc._id, doc.milestoneId, doc.milestoneDue ?? null);
    return doc;
  }

  function updateIssue(origin: EventOrigin, doc: NoteableDoc, actor: UserSummary, input: IssueUpdate) {
    return update(
      origin,
      doc,
      actor,
      changesOf(input),
      input.state_event,
      { close: EVENTS.issueClosed, reopen: EVENTS.issueReopened },
      input.updated_at ?? null,
    );
  }

  async function createMergeRequest(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    input: MergeRequestInput,
  ): Promise<NoteableDoc> {
    if (input.source_branch === input.target_branch) {
      throw new HttpError(422, { message: ["You can't use same project/branch for source and target"] });
    }
    const open = await store.openMergeRequest(projectId, input.source_branch, input.target_branch);
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
    const doc = await draft('MergeRequest', `merge_requests:${projectId}`, author, input.title, {
      projectId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      milestoneId: input.milestone_id || null,
      milestoneDue: await milestoneCopies.dueOf(input.milestone_id),
      sourceBranch: input.source_branch,
      targetBranch: input.target_branch,
      diffRefs,
      reviewerIds: input.reviewer_ids ?? [],
    });
    await insert(origin, doc, EVENTS.mergeRequestOpened);
    await milestoneCopies.settle(doc._id, doc.milestoneId, doc.milestoneDue ?? null);
    return doc;
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
    // Merge requests have no confidentiality: whatever the body says, it is not changed.
    return update(
      origin,
      doc,
      actor,
      { ...changesOf(input), confidential: undefined, dueDate: undefined, weight: undefined },
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

  /** Snippets::CreateService: a project snippet, or a personal one (`projectId` null), with its files. */
  async function createSnippet(
    origin: EventOrigin,
    projectId: number | null,
    author: UserSummary,
    input: { title: string; description?: string; visibility: string; files: SnippetFile[] },
  ): Promise<NoteableDoc> {
    const doc = await draft('Snippet', null, author, input.title, {
      projectId,
      description: input.description ?? null,
      ...snippetFileFields(input.files),
      visibility: input.visibility as NoteableDoc['visibility'],
    });
    return insert(origin, doc, EVENTS.snippetCreated);
  }

  async function createEpic(
    origin: EventOrigin,
    groupId: number,
    author: UserSummary,
    input: { title: string; description?: string; labels?: string[]; confidential?: boolean },
  ): Promise<NoteableDoc> {
    const doc = await draft('Epic', `epics:${groupId}`, author, input.title, {
      groupId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      confidential: input.confidential ?? false,
    });
    return insert(origin, doc, EVENTS.epicOpened);
  }

  /** Epics::UpdateService: fields, fixed dates, close and reopen (no domain event names epic state). */
  function updateEpic(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    changes: NoteableChanges,
    stateEvent: 'close' | 'reopen' | undefined,
  ) {
    return update(origin, doc, actor, changes, stateEvent, null);
  }

  /** Epics::DestroyService: the epic and its notes go. */
  async function destroyEpic(doc: NoteableDoc): Promise<void> {
    await deps.models.notes.deleteMany({ noteableType: 'Epic', noteableId: doc._id });
    await deps.models.noteables.db.collection('epic_issues').deleteMany({ epicId: doc._id });
    await deps.models.noteables.deleteOne({ _id: doc._id, kind: 'Epic' });
  }

  const epicIssues = createEpicIssues(deps);

  return {
    ...createIssuableExtras(deps),
    updateEpic,
    destroyEpic,
    epicIssues,
    setIssueEpic: createIssueEpicSetter({ epicIssues, notes, findById: (id) => store.findById(id) }),
    subscriptions: createIssuableSubscriptions(deps.models),
    reviewerIds: createReviewerFilter(deps.models),
    issueEpics: createIssueEpics(deps.models),
    ...createIssueRelations(deps),
    ...createSnippetEdits(deps),
    ...createDiscussionsProjections(deps),
    moveIssueBetween: (scope: string, id: number, afterId: number | null, beforeId: number | null) =>
      positions.moveBetween(scope, id, afterId, beforeId),
    findIssueById: (id: number) => store.findById(id),
    findByIid: (kind: NoteableKind, scope: 'projectId' | 'groupId', parentId: number, iid: number) =>
      store.findByIid(kind, scope, parentId, iid),
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
    findSnippet: (projectId: number, id: number) => store.findInParent('Snippet', 'projectId', projectId, id),
    findEpicById: (groupId: number, id: number) => store.findInParent('Epic', 'groupId', groupId, id),
  };
}

export type NoteablesService = ReturnType<typeof createNoteablesService>;
