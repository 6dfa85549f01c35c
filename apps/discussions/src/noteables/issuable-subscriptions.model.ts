import type { Connection } from 'mongoose';
import { defineModel, documentSchema } from '@gl/service-kit';

/**
 * Subscription (app/models/subscription.rb): one user's explicit choice about the notices of one issue or
 * merge request. `subscribed: false` is kept too: an unsubscribed participant stays unsubscribed.
 * `_id` is `<noteableId>:<userId>`, so two concurrent writes of the same choice meet on one document.
 */
export interface IssuableSubscriptionDoc {
  _id: string;
  noteableId: number;
  userId: number;
  subscribed: boolean;
  updatedAt: Date;
}

export function createIssuableSubscriptionsModel(connection: Connection) {
  const schema = documentSchema<IssuableSubscriptionDoc>({
    _id: String,
    noteableId: Number,
    userId: Number,
    subscribed: Boolean,
    updatedAt: Date,
  });
  // Subscribable#subscriptions.find_by_user_id: one read by (subject, user).
  schema.index({ noteableId: 1, userId: 1 }, { unique: true });
  return defineModel(connection, 'IssuableSubscription', schema, 'issuable_subscriptions');
}
