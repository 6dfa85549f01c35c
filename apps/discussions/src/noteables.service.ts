import { createHash, randomBytes } from 'node:crypto';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type BranchPushedData,
  type EventActor,
  type IncidentOpenedData,
  type TargetEventData,
  type UserSummary,
} from '@gl/contracts';
import {
  HttpError,
  createEvent,
  excerpt,
  isDuplicateKeyError,
  pushEvents,
  withEvents,
  type EventOrigin,
} from '@gl/service-kit';
import type {
  CommitDoc,
  DiffRefs,
  IncidentLinkDoc,
  MilestoneDoc,
  NoteableDoc,
  NoteableKind,
} from './discussions.models';
import { accessTargetOf, actorOf, audienceOf } from './discussions.access';
import type { NoteTarget, NotesDeps, NotesService } from './notes.service';
import { assigneesChangeNote, titleChangeNote } from './system-notes';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

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

/** The activity target, with the audience the events service reads it with (as it is at this moment). */
function targetData(doc: NoteableDoc): TargetEventData {
  return {
    targetId: doc._id,
    targetIid: doc.kind === 'Snippet' ? null : doc.iid,
    targetTitle: excerpt(doc.title, EVENT_TEXT_LIMITS.title),
    audience: audienceOf(doc),
  };
}

/** A user summary for event actors that only carry id, username and name (alert bot, incidents). */
export function summaryOfActor(actor: EventActor): UserSummary {
  const user = actor ?? { id: 0, username: 'alert-bot', name: 'GitLab Alert Bot' };
  return { ...user, state: 'active', locked: false, avatar_url: null, web_url: `/${user.username}` };
}

/** Branches never pushed still need SHAs for diff_refs: a stable stand-in per project and branch. */
function placeholderSha(projectId: number, branch: string): string {
  return createHash('sha1').update(`branch-${projectId}-${branch}`).digest('hex');
}

/** Milestone#to_reference(format: :name) for group milestones: `%"title"`, or `%iid` when the title has a quote. */
function milestoneReference(milestone: { iid: number | null; title: string }): string {
  return milestone.title.includes('"') ? `%${milestone.iid}` : `%"${milestone.title}"`;
}

export interface IssueInput {
  title: string;
  description?: string;
  labels?: string[];
  milestone_id?: number;
  assignee_ids?: number[];
  issue_type?: 'issue' | 'incident';
  /** The caller may set it (`set_confidentiality`); the router drops it otherwise. */
  confidential?: boolean;
}

export interface IssueUpdate extends Partial<IssueInput> {
  state_event?: 'close' | 'reopen';
}

/** Which noteables of a list the caller may read; `all` when they read every one (no per-item check). */
export type ListVisibility = 'all' | ((doc: NoteableDoc) => boolean);

/** The fields the read rule looks at: what a list reads of every candidate before it reads the page. */
const AUDIENCE_FIELDS = { _id: 1, kind: 1, confidential: 1, visibility: 1, author: 1, assigneeIds: 1 };

export function createNoteablesService(deps: NotesDeps, notes: NotesService) {
  const { models, counters, outbox } = deps;

  function blankNoteable(
    kind: NoteableKind,
    id: number,
    iid: number | null,
    author: UserSummary,
    title: string,
  ): NoteableDoc {
    const now = new Date();
    return {
      _id: id,
      kind,
      projectId: null,
      groupId: null,
      iid,
      title,
      description: null,
      state: 'opened',
      labels: [],
      milestoneId: null,
      assigneeIds: [],
      author,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      closedBy: null,
      mergedAt: null,
      mergedBy: null,
      issueType: null,
      alertId: null,
      sourceBranch: null,
      targetBranch: null,
      diffRefs: null,
      mergeCommitSha: null,
      fileName: null,
      content: null,
      visibility: null,
      confidential: false,
    };
  }

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

  async function branchHead(projectId: number, branch: string): Promise<string | null> {
    const found = await models.branches.findById(`${projectId}:${branch}`).lean();
    return found?.headSha ?? null;
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
  async function createCommit(
    origin: EventOrigin,
    projectId: number,
    author: UserSummary,
    authorEmail: string,
    input: { branch: string; commit_message: string; start_branch?: string; start_sha?: string },
    extraParents: string[] = [],
  ): Promise<CommitDoc> {
    const branchId = `${projectId}:${input.branch}`;
    const existing = await models.branches.findById(branchId).lean();
    const parent =
      existing?.headSha ??
      input.start_sha ??
      (input.start_branch ? await branchHead(projectId, input.start_branch) : null);
    const now = new Date();
    const sha = createHash('sha1')
      .update(`commit-${projectId}-${input.branch}-${now.getTime()}-${randomBytes(16).toString('hex')}`)
      .digest('hex');
    const title = input.commit_message.split('\n')[0]!.trim();
    const commit: CommitDoc = {
      _id: sha,
      projectId,
      branch: input.branch,
      title,
      message: input.commit_message,
      parentIds: [...(parent ? [parent] : []), ...extraParents],
      authorName: author.name,
      authorEmail,
      createdAt: now,
    };
    await models.commits.create(commit);
    const push = (action: 'created' | 'pushed', from: string | null) =>
      createEvent(origin, {
        type: EVENTS.branchPushed,
        actor: actorOf(author),
        projectId,
        data: {
          ref: input.branch,
          refType: 'branch',
          action,
          commitCount: 1,
          commitFrom: from,
          commitTo: sha,
          commitTitle: excerpt(title, EVENT_TEXT_LIMITS.commitTitle),
        } satisfies BranchPushedData,
      });
    let created = false;
    if (!existing) {
      try {
        await models.branches.create(
          withEvents({ _id: branchId, projectId, name: input.branch, headSha: sha, updatedAt: now }, [
            push('created', null),
          ]),
        );
        created = true;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    }
    if (!created) {
      const previous = existing?.headSha ?? (await branchHead(projectId, input.branch));
      await models.branches.updateOne(
        { _id: branchId },
        pushEvents({ $set: { headSha: sha, updatedAt: now } }, [push('pushed', previous)]),
      );
    }
    outbox.kick();
    return commit;
  }

  /** `project.commit(ref)`: a full or abbreviated SHA, or a branch name (its head). */
  async function findCommit(projectId: number, ref: string): Promise<CommitDoc | null> {
    if (/^[0-9a-fA-F]{4,40}$/.test(ref)) {
      const lower = ref.toLowerCase();
      const found =
        lower.length === 40
          ? await models.commits.findOne({ _id: lower, projectId }).lean<CommitDoc>()
          : await models.commits.findOne({ projectId, _id: { $regex: `^${lower}` } }).lean<CommitDoc>();
      if (found) return found;
    }
    const head = await branchHead(projectId, ref);
    return head ? models.commits.findOne({ _id: head, projectId }).lean<CommitDoc>() : null;
  }

  async function listCommits(projectId: number, refName: string | undefined, skip: number, limit: number) {
    const filter: Record<string, unknown> = { projectId };
    if (refName) filter.branch = refName;
    const [items, total] = await Promise.all([
      models.commits.find(filter).sort({ createdAt: -1, _id: 1 }).skip(skip).limit(limit).lean<CommitDoc[]>(),
      models.commits.countDocuments(filter),
    ]);
    return { items, total };
  }

  /** `gl.alerts.alert.created` with createIncident: one incident issue per alert, whatever redelivers. */
  async function openIncident(
    origin: EventOrigin,
    projectId: number,
    actor: EventActor,
    alert: { alertId: string; title: string; description: string | null },
  ): Promise<void> {
    let link = await models.incidents.findById(alert.alertId).lean<IncidentLinkDoc>();
    if (!link) {
      const reserved = {
        _id: alert.alertId,
        projectId,
        issueId: await counters.next('noteable'),
        issueIid: await counters.next(`issues:${projectId}`),
      };
      try {
        await models.incidents.create(reserved);
        link = reserved;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        link = await models.incidents.findById(alert.alertId).lean<IncidentLinkDoc>();
      }
    }
    if (!link || (await models.noteables.exists({ _id: link.issueId }))) return;
    const author = summaryOfActor(actor);
    const doc = blankNoteable('Issue', link.issueId, link.issueIid, author, alert.title);
    Object.assign(doc, {
      projectId,
      description: alert.description,
      issueType: 'incident',
      alertId: alert.alertId,
    });
    const opened = createEvent(origin, {
      type: EVENTS.incidentOpened,
      actor,
      projectId,
      data: {
        alertId: alert.alertId,
        issueId: link.issueId,
        issueIid: link.issueIid,
      } satisfies IncidentOpenedData,
    });
    try {
      await insert(origin, doc, EVENTS.issueOpened, [opened]);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** `gl.alerts.alert.resolved`: closes the alert's incident issue (system note "closed"), if it is open. */
  async function closeIncident(origin: EventOrigin, alertId: string, actor: EventActor): Promise<void> {
    const link = await models.incidents.findById(alertId).lean();
    if (!link) return;
    const issue = await models.noteables.findById(link.issueId).lean<NoteableDoc>();
    if (!issue || issue.state !== 'opened') return;
    await updateIssue(origin, issue, summaryOfActor(actor), { state_event: 'close' });
  }

  return {
    findByIid,
    list,
    createIssue,
    updateIssue,
    createMergeRequest,
    updateMergeRequest,
    mergeMergeRequest,
    createSnippet,
    createEpic,
    createCommit,
    findCommit,
    listCommits,
    openIncident,
    closeIncident,
    async findSnippet(projectId: number, id: number) {
      return models.noteables.findOne({ kind: 'Snippet', projectId, _id: id }).lean<NoteableDoc>();
    },
    async findEpicById(groupId: number, id: number) {
      return models.noteables.findOne({ kind: 'Epic', groupId, _id: id }).lean<NoteableDoc>();
    },
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
    /** Keeps the newest copy of a user: an identity event older than the stored one changes nothing. */
    async recordUser(user: { userId: number; username: string; name: string }, seenAt: string) {
      const set = { username: user.username, name: user.name, seenAt };
      const newer = await models.users.updateOne(
        { _id: user.userId, seenAt: { $lte: seenAt } },
        { $set: set },
      );
      if (newer.matchedCount > 0) return;
      try {
        await models.users.create({ _id: user.userId, ...set });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err; // already there, with a newer copy
      }
    },
    async recordMilestone(id: number, iid: number | null, title: string) {
      await models.milestones.updateOne({ _id: id }, { $set: { iid, title } }, { upsert: true });
    },
  };
}

export type NoteablesService = ReturnType<typeof createNoteablesService>;
