import type { UserSummary } from '@gl/contracts';
import { knownUser, userSummary } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from './noteable.model';
import {
  createIssuableSubscriptionsModel,
  type IssuableSubscriptionDoc,
} from './issuable-subscriptions.model';

/** Who is asking about a subscription, and how to list the participants they may see. */
export interface SubscriptionViewer {
  userId: number;
  /**
   * Whether the viewer is among Issuable#participants(user) through the notes and description, as far as
   * they read the notes (author, assignees and reviewers are decided here first).
   */
  takesPart: () => Promise<boolean>;
}

/** Users listed on a noteable as having chosen (`subscriberIds`); past this many, the list is dropped. */
export const SUBSCRIBERS_TRACKED = 100;

/**
 * Subscriptions of users to issues and merge requests (Subscribable, app/models/concerns/subscribable.rb)
 * and the reviewer summaries merge requests show.
 */
export function createIssuableSubscriptions(models: Pick<DiscussionsModels, 'noteables' | 'users'>) {
  const subscriptions = createIssuableSubscriptionsModel(models.noteables.db);

  /** The user's explicit choice, or null when they never made one. */
  async function explicit(noteableId: number, userId: number): Promise<boolean | null> {
    const doc = await subscriptions
      .findOne({ noteableId, userId }, { subscribed: 1 })
      .lean<Pick<IssuableSubscriptionDoc, 'subscribed'>>();
    return doc ? doc.subscribed : null;
  }

  /**
   * Adds the user to the noteable's list while it has one and room; otherwise (full, or dropped by a
   * concurrent choice) the list is dropped and every caller's choice is read again.
   */
  async function list(noteableId: number, userId: number, ids: number[]): Promise<number[] | undefined> {
    const listed = await models.noteables.updateOne(
      {
        _id: noteableId,
        subscriberIds: { $exists: true },
        [`subscriberIds.${SUBSCRIBERS_TRACKED - 1}`]: { $exists: false },
      },
      { $addToSet: { subscriberIds: userId } },
    );
    if (listed.matchedCount > 0) return [...ids, userId];
    await models.noteables.updateOne(
      { _id: noteableId, subscriberIds: { $exists: true } },
      { $unset: { subscriberIds: 1 } },
    );
    return undefined;
  }

  return {
    /**
     * Subscribable#subscribed?: the explicit choice where there is one, else whether the user takes part
     * (author, assignee, reviewer, commenter or mentioned: `subscribed_without_subscriptions?`). The
     * participants are read only when nothing cheaper decides.
     */
    async subscribed(
      doc: NoteableDoc,
      viewer: SubscriptionViewer | null,
      /** The issuable was created by this request: nobody has chosen yet, nothing to read. */
      options: { noChoiceYet?: boolean } = {},
    ): Promise<boolean> {
      if (!viewer) return false;
      // A caller the noteable does not list has never chosen (`subscriberIds`): nothing to read.
      const unlisted = doc.subscriberIds !== undefined && !doc.subscriberIds.includes(viewer.userId);
      const chosen = options.noChoiceYet || unlisted ? null : await explicit(doc._id, viewer.userId);
      if (chosen !== null) return chosen;
      const { userId } = viewer;
      if (doc.author.id === userId || doc.assigneeIds.includes(userId)) return true;
      if ((doc.reviewerIds ?? []).includes(userId)) return true;
      return viewer.takesPart();
    },
    /**
     * Subscribable#subscribe / #unsubscribe: records the choice (find_or_initialize_by user), after listing
     * the user on the noteable, so that a reader finding the choice finds them listed. Answers the
     * noteable as it lists them now, for the answer of the same request.
     */
    async set<T extends Pick<NoteableDoc, '_id' | 'subscriberIds'>>(
      doc: T,
      userId: number,
      subscribed: boolean,
    ): Promise<T> {
      const ids = doc.subscriberIds;
      const listed = ids === undefined || ids.includes(userId) ? ids : await list(doc._id, userId, ids);
      await subscriptions.updateOne(
        { _id: `${doc._id}:${userId}` },
        { $set: { noteableId: doc._id, userId, subscribed, updatedAt: new Date() } },
        { upsert: true },
      );
      return listed === ids ? doc : { ...doc, subscriberIds: listed };
    },
    /** An issuable's subscriptions go with it (`has_many :subscriptions, dependent: :destroy`). */
    async removeOf(noteableId: number): Promise<void> {
      await subscriptions.deleteMany({ noteableId });
    },
    /**
     * Entities::UserBasic of the given users from discussions' copy of the identity users; a user the
     * copy has not seen yet is shown by id only.
     */
    async summaries(ids: number[], externalUrl: string): Promise<Map<number, UserSummary>> {
      const wanted = [...new Set(ids)];
      if (wanted.length === 0) return new Map();
      type Known = { _id: number; username: string; name: string; email?: string; destroyed?: boolean };
      const found = await models.users.find({ _id: { $in: wanted } }).lean<Known[]>();
      const base = externalUrl.replace(/\/+$/, '');
      return new Map(found.map((u) => [u._id, userSummary(knownUser(u), base)] as const));
    },
  };
}
