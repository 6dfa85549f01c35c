import type { Connection } from 'mongoose';
import { defineModel, documentSchema } from '@gl/service-kit';

/**
 * Subscription (app/models/subscription.rb) of one user to one label, a group's or a project's (their ids
 * come from one counter): labels have no participants, so a user is subscribed only by their own choice.
 * `_id` is `<labelId>:<userId>`: concurrent writes of the same choice meet on one document.
 */
export interface LabelSubscriptionDoc {
  _id: string;
  labelId: number;
  userId: number;
  subscribed: boolean;
  updatedAt: Date;
}

export function createLabelSubscriptions(connection: Connection) {
  const schema = documentSchema<LabelSubscriptionDoc>({
    _id: String,
    labelId: Number,
    userId: Number,
    subscribed: Boolean,
    updatedAt: Date,
  });
  // Subscribable#subscriptions.find_by_user_id, and a page of labels for one user.
  schema.index({ labelId: 1, userId: 1 }, { unique: true });
  schema.index({ userId: 1, labelId: 1 });
  const subscriptions = defineModel(connection, 'LabelSubscription', schema, 'label_subscriptions');

  /** The labels among these the user is subscribed to (one read for a page of labels). */
  async function subscribedAmong(userId: number | null, labelIds: number[]): Promise<Set<number>> {
    if (userId === null || labelIds.length === 0) return new Set();
    const docs = await subscriptions
      .find({ userId, labelId: { $in: labelIds }, subscribed: true }, { labelId: 1 })
      .lean<Pick<LabelSubscriptionDoc, 'labelId'>[]>();
    return new Set(docs.map((d) => d.labelId));
  }

  /** Subscribable#subscribe / #unsubscribe. */
  async function set(labelId: number, userId: number, subscribed: boolean): Promise<void> {
    await subscriptions.updateOne(
      { _id: `${labelId}:${userId}` },
      { $set: { labelId, userId, subscribed, updatedAt: new Date() } },
      { upsert: true },
    );
  }

  return {
    subscribedAmong,
    /**
     * The subscribe and unsubscribe calls on a label of either kind: the choice recorded, or false when
     * the user's is already that one (lib/api/subscriptions.rb answers 304 Not Modified then).
     */
    async choose(labelId: number, userId: number, subscribed: boolean): Promise<boolean> {
      if ((await subscribedAmong(userId, [labelId])).has(labelId) === subscribed) return false;
      await set(labelId, userId, subscribed);
      return true;
    },
    /** A deleted label's subscriptions go with it (`has_many :subscriptions, dependent: :destroy`). */
    async removeOf(labelId: number): Promise<void> {
      await subscriptions.deleteMany({ labelId });
    },
    /**
     * Labels::PromoteService#subscribe_users: the merged labels' subscriptions go to the group label, one
     * per user (the latest choice); a choice the user already made on the group label stays.
     */
    async moveTo(fromIds: number[], toId: number): Promise<void> {
      if (fromIds.length === 0) return;
      const moved = await subscriptions
        .find({ labelId: { $in: fromIds } })
        .sort({ updatedAt: 1 })
        .lean<LabelSubscriptionDoc[]>();
      const latest = new Map(moved.map((doc) => [doc.userId, doc]));
      for (const doc of latest.values()) {
        await subscriptions.updateOne(
          { _id: `${toId}:${doc.userId}` },
          {
            $setOnInsert: {
              labelId: toId,
              userId: doc.userId,
              subscribed: doc.subscribed,
              updatedAt: doc.updatedAt,
            },
          },
          { upsert: true },
        );
      }
      await subscriptions.deleteMany({ labelId: { $in: fromIds } });
    },
  };
}

export type LabelSubscriptions = ReturnType<typeof createLabelSubscriptions>;
