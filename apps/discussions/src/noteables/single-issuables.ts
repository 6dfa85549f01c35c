import type { Request } from 'express';
import type { IssuableHookAttributes, IssueEntity } from '@gl/contracts';
import { isHigherTier } from '@gl/service-kit';
import { accessTargetOf, canReadNote, canReadNoteable } from '../common/access';
import { presentIssue } from '../issues/issues.presenter';
import { presentMergeRequest } from '../merge-requests/merge-requests.presenter';
import { ancestorPathOf, epicFieldsOf } from '../epics/issue-epics';
import type { IssuableExtras } from './issuable.presenter';
import type { NoteableDoc } from './noteable.model';
import type { SubscriptionViewer } from './issuable-subscriptions';
import type { NoteablesService } from './noteables.service';
import { takesPartInNotes, userNotesCountOf, type NoteFacts } from './participation';

/**
 * What a request that just wrote the issue already knows, so its answer does not read it back: an issue
 * this request created has no comments and no subscription choice yet (its ids come from counters, never
 * reused), and an epic the request set is the issue's epic now (`null`: it has none).
 */
export interface KnownIssueState {
  created?: boolean;
  epic?: NoteableDoc | null;
}

/**
 * One issue or merge request as its own endpoints answer it (Entities::Issue / Entities::MergeRequest with
 * `include_subscribed`): `subscribed` for the caller, reviewers as users, and on the tiers that have them
 * the issue's weight and epic.
 */
export function createSingleIssuables(noteables: NoteablesService) {
  /** The caller reads the noteable's internal notes: they count and show participation only then. */
  const readsInternal = (req: Request, doc: NoteableDoc) =>
    canReadNote(req.ctx, accessTargetOf(doc), { internal: true });

  /**
   * The notes' facts, read once per answer where the caller's `subscribed` may turn on them (a caller who
   * is neither author, assignee nor reviewer); user_notes_count is then counted from the same read.
   */
  function noteFactsFor(doc: NoteableDoc, req: Request, known: KnownIssueState): Promise<NoteFacts[]> | null {
    const userId = req.ctx.principal?.id;
    if (userId === undefined || known.created) return null;
    const byRole =
      doc.author.id === userId ||
      doc.assigneeIds.includes(userId) ||
      (doc.reviewerIds ?? []).includes(userId);
    return byRole ? null : noteables.noteFacts(doc);
  }

  function viewerOf(
    req: Request,
    doc: NoteableDoc,
    facts: Promise<NoteFacts[]> | null = null,
  ): SubscriptionViewer | null {
    const principal = req.ctx.principal;
    if (!principal) return null;
    return {
      userId: principal.id,
      takesPart: async () => {
        const internal = readsInternal(req, doc);
        const notes = await (facts ?? noteables.noteFacts(doc));
        return takesPartInNotes(doc, notes, principal, (note) => internal || note.internal !== true);
      },
    };
  }

  async function extras(
    doc: NoteableDoc,
    req: Request,
    known: KnownIssueState,
    facts: Promise<NoteFacts[]> | null,
  ): Promise<IssuableExtras> {
    // Internal notes are counted only for callers who may read them.
    const internal = readsInternal(req, doc);
    const [milestone, userNotesCount, users] = await Promise.all([
      noteables.milestone(doc.milestoneId),
      known.created
        ? 0
        : facts
          ? facts.then((notes) => userNotesCountOf(notes, internal))
          : noteables.userNotesCount(doc, internal),
      noteables.subscriptions.summaries(doc.reviewerIds ?? [], req.ctx.externalUrl),
    ]);
    const votes = known.created ? undefined : noteables.votes(doc);
    return { milestone, userNotesCount, users, votes, weights: isHigherTier(req.ctx) };
  }

  /** EE::API::Entities::Issue `epic_iid` / `epic`: the issue's epic where epics exist and the caller reads it. */
  async function epicFields(
    doc: NoteableDoc,
    req: Request,
    known: KnownIssueState,
  ): Promise<Pick<IssueEntity, 'epic_iid' | 'epic'>> {
    if (!isHigherTier(req.ctx)) return {};
    const epic = known.epic !== undefined ? known.epic : known.created ? null : await linkedEpic(doc);
    const readable = epic && epic.kind === 'Epic' && canReadNoteable(req.ctx, epic) ? epic : null;
    const groupPath = readable && ancestorPathOf(req.ctx.namespace!, readable.groupId!);
    return epicFieldsOf(readable, groupPath, req.ctx.externalUrl);
  }

  async function linkedEpic(doc: NoteableDoc): Promise<NoteableDoc | null> {
    if (!doc.mayHaveEpic) return null;
    const link = await noteables.epicIssues.ofIssue(doc._id);
    return link && noteables.findIssueById(link.epicId);
  }

  /**
   * What a read for a webhook payload adds (the context's `hookAttributes`, which only the hooks service
   * signs): the columns GitLab's hook data shows beyond the API entity. Nothing for any other caller.
   */
  function hookAttributes(doc: NoteableDoc, req: Request): IssuableHookAttributes | Record<string, never> {
    return req.ctx.hookAttributes ? { updated_by_id: doc.updatedById ?? null } : {};
  }

  return {
    subscribed: (doc: NoteableDoc, req: Request) =>
      noteables.subscriptions.subscribed(doc, viewerOf(req, doc)),
    issue: async (doc: NoteableDoc, req: Request, known: KnownIssueState = {}) => {
      const facts = noteFactsFor(doc, req, known);
      const [base, subscribed, epic] = await Promise.all([
        extras(doc, req, known, facts).then((e) => presentIssue(doc, req.ctx.namespace!, e)),
        noteables.subscriptions.subscribed(doc, viewerOf(req, doc, facts), { noChoiceYet: known.created }),
        epicFields(doc, req, known),
      ]);
      // Extended, not spread (issuable.presenter.ts issuableHeading says why).
      return Object.assign(base, epic, { subscribed }, hookAttributes(doc, req));
    },
    mergeRequest: async (doc: NoteableDoc, req: Request) => {
      const facts = noteFactsFor(doc, req, {});
      const [base, subscribed] = await Promise.all([
        extras(doc, req, {}, facts).then((e) => presentMergeRequest(doc, req.ctx.namespace!, e)),
        noteables.subscriptions.subscribed(doc, viewerOf(req, doc, facts)),
      ]);
      return Object.assign(base, { subscribed }, hookAttributes(doc, req));
    },
  };
}
