import type { Request } from 'express';
import type { IssueEntity } from '@gl/contracts';
import { isHigherTier } from '@gl/service-kit';
import { accessTargetOf, canReadNote, canReadNoteable } from '../shared/access';
import { presentIssue } from '../issues/issues.presenter';
import { presentMergeRequest } from '../merge-requests/merge-requests.presenter';
import { ancestorPathOf, epicFieldsOf } from '../epics/issue-epics';
import type { IssuableExtras } from './issuable.presenter';
import type { NoteableDoc } from './noteable.model';
import type { SubscriptionViewer } from './issuable-subscriptions';
import type { NoteablesService } from './noteables.service';

/**
 * One issue or merge request as its own endpoints answer it (Entities::Issue / Entities::MergeRequest with
 * `include_subscribed`): `subscribed` for the caller, reviewers as users, and on the tiers that have them
 * the issue's weight and epic.
 */
export function createSingleIssuables(noteables: NoteablesService) {
  function viewerOf(req: Request, doc: NoteableDoc): SubscriptionViewer | null {
    const principal = req.ctx.principal;
    if (!principal) return null;
    const base = req.ctx.externalUrl.replace(/\/+$/, '');
    return {
      userId: principal.id,
      participantIds: async () => {
        const internal = canReadNote(req.ctx, accessTargetOf(doc), { internal: true });
        const users = await noteables.participants(
          doc,
          (note) => internal || note.internal !== true,
          (name) => `${base}/${name}`,
        );
        return users.map((u) => u.id);
      },
    };
  }

  async function extras(doc: NoteableDoc, req: Request): Promise<IssuableExtras> {
    const [milestone, userNotesCount, users] = await Promise.all([
      noteables.milestone(doc.milestoneId),
      // Internal notes are counted only for callers who may read them.
      noteables.userNotesCount(doc, canReadNote(req.ctx, accessTargetOf(doc), { internal: true })),
      noteables.subscriptions.summaries(doc.reviewerIds ?? [], req.ctx.externalUrl),
    ]);
    return { milestone, userNotesCount, users, weights: isHigherTier(req.ctx) };
  }

  /** EE::API::Entities::Issue `epic_iid` / `epic`: the issue's epic where epics exist and the caller reads it. */
  async function epicFields(doc: NoteableDoc, req: Request): Promise<Pick<IssueEntity, 'epic_iid' | 'epic'>> {
    if (!isHigherTier(req.ctx)) return {};
    const link = await noteables.epicIssues.ofIssue(doc._id);
    const epic = link && (await noteables.findIssueById(link.epicId));
    const readable = epic && epic.kind === 'Epic' && canReadNoteable(req.ctx, epic) ? epic : null;
    const groupPath = readable && ancestorPathOf(req.ctx.namespace!, readable.groupId!);
    return epicFieldsOf(readable, groupPath, req.ctx.externalUrl);
  }

  return {
    subscribed: (doc: NoteableDoc, req: Request) =>
      noteables.subscriptions.subscribed(doc, viewerOf(req, doc)),
    issue: async (doc: NoteableDoc, req: Request) => {
      const [base, subscribed, epic] = await Promise.all([
        extras(doc, req).then((e) => presentIssue(doc, req.ctx.namespace!, e)),
        noteables.subscriptions.subscribed(doc, viewerOf(req, doc)),
        epicFields(doc, req),
      ]);
      return { ...base, ...epic, subscribed };
    },
    mergeRequest: async (doc: NoteableDoc, req: Request) => {
      const [base, subscribed] = await Promise.all([
        extras(doc, req).then((e) => presentMergeRequest(doc, req.ctx.namespace!, e)),
        noteables.subscriptions.subscribed(doc, viewerOf(req, doc)),
      ]);
      return { ...base, subscribed };
    },
  };
}

export type SingleIssuables = ReturnType<typeof createSingleIssuables>;
