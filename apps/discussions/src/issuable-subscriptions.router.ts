import type { Request, Response, Router } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, type IssueEntity } from '@gl/contracts';
import {
  ForbiddenError,
  ModelError,
  NotFoundError,
  accessLevelOf,
  isHigherTier,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { accessTargetOf, canReadNote, canReadNoteable, readableNamespace } from './discussions.access';
import { presentIssue, presentMergeRequest, type IssuableExtras } from './discussions.presenters';
import type { NoteableDoc } from './discussions.models';
import type { SubscriptionViewer } from './issuable-subscriptions';
import type { NoteablesService } from './noteables.service';
import { ancestorPathOf, epicFieldsOf } from './issue-epics';

/** `subscribable_id` is a String param: what is not an iid finds nothing (find_by! → 404). */
function iidOf(req: Request, name: string): number {
  const raw = String(req.params[name] ?? '');
  if (!/^\d+$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}

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

/**
 * EE Issues::BaseService `epic_id`: the epic of the project's group or an ancestor (EpicsFinder with
 * include_ancestor_groups) the caller reads, on the tiers with epics; 0 (or null) takes the issue out of
 * its epic (returned as null). An epic not found that way is ActiveRecord's "404 Not found".
 */
export async function issueEpicFor(
  noteables: NoteablesService,
  req: Request,
  epicId: number | undefined,
): Promise<NoteableDoc | null | undefined> {
  if (epicId === undefined) return undefined;
  if (epicId === 0) return null;
  const groups = req.ctx.namespace!.ancestorGroupIds;
  const epic = isHigherTier(req.ctx) ? await noteables.findIssueById(epicId) : null;
  if (
    !epic ||
    epic.kind !== 'Epic' ||
    !groups.includes(epic.groupId ?? -1) ||
    !canReadNoteable(req.ctx, epic)
  ) {
    throw new NotFoundError();
  }
  return epic;
}

/**
 * EE `weight`: kept only on the tiers with issue weights (filter_params drops it elsewhere); Issue's
 * validation `numericality: { greater_than_or_equal_to: 0 }`.
 */
export function weightParam(req: Request, weight: number | null | undefined): number | null | undefined {
  if (weight === undefined || !isHigherTier(req.ctx)) return undefined;
  if (weight !== null && weight < 0) {
    throw ModelError.fields({ weight: ['must be greater than or equal to 0'] });
  }
  return weight;
}

/** lib/api/subscriptions.rb on issues and merge requests: 201 with the entity when it changes, else 304. */
export function routeIssuableSubscriptions(router: Router, noteables: NoteablesService): void {
  const single = createSingleIssuables(noteables);

  /** find_project_issue: an issue the caller cannot read is not found. */
  async function issueOr404(req: Request): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'project');
    const issue = await noteables.findByIid('Issue', 'projectId', ns.id, iidOf(req, 'issue_iid'));
    if (!issue || !canReadNoteable(req.ctx, issue)) throw new NotFoundError();
    return issue;
  }

  /**
   * find_merge_request_with_access(id, :update_merge_request): unknown → 404; then who may not update it
   * (author, assignee, Developer and up) → 403.
   */
  async function mergeRequestToUpdate(req: Request): Promise<NoteableDoc> {
    const ns = readableNamespace(req.ctx, 'project');
    const mr = await noteables.findByIid('MergeRequest', 'projectId', ns.id, iidOf(req, 'merge_request_iid'));
    if (!mr) throw new NotFoundError();
    const user = requireUser(req.ctx);
    const own = mr.author.id === user.id || mr.assigneeIds.includes(user.id);
    const readable = canReadNoteable(req.ctx, mr);
    if (!readable || (!own && accessLevelOf(req.ctx) < ACCESS_LEVELS.developer)) throw new ForbiddenError();
    return mr;
  }

  async function toggle(
    req: Request,
    res: Response,
    find: (req: Request) => Promise<NoteableDoc>,
    want: boolean,
    present: (doc: NoteableDoc, req: Request) => Promise<object>,
  ) {
    // `before { authenticate! }`: anonymous callers are refused before anything is looked up.
    const user = requireUser(req.ctx);
    const doc = await find(req);
    if ((await single.subscribed(doc, req)) === want) {
      // not_modified!: an empty 304.
      res.status(304).end();
      return;
    }
    await noteables.subscriptions.set(doc._id, user.id, want);
    sendJson(res, 201, await present(doc, req));
  }

  route(router, DISCUSSIONS_API.subscribeProjectIssue, async ({ req, res }) => {
    await toggle(req, res, issueOr404, true, single.issue);
  });
  route(router, DISCUSSIONS_API.unsubscribeProjectIssue, async ({ req, res }) => {
    await toggle(req, res, issueOr404, false, single.issue);
  });
  route(router, DISCUSSIONS_API.subscribeProjectMergeRequest, async ({ req, res }) => {
    await toggle(req, res, mergeRequestToUpdate, true, single.mergeRequest);
  });
  route(router, DISCUSSIONS_API.unsubscribeProjectMergeRequest, async ({ req, res }) => {
    await toggle(req, res, mergeRequestToUpdate, false, single.mergeRequest);
  });
}
