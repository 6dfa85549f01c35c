import { Schema, type Connection, type Model } from 'mongoose';
import type { NotificationLevel } from '@gl/contracts';
import { defineModel, documentSchema } from '@gl/service-kit';

export type SourceType = 'global' | 'group' | 'project';

/**
 * One user's setting for one source (GitLab's notification_settings row). `_id` is
 * `<userId>:global`, `<userId>:group:<id>` or `<userId>:project:<id>`, so a user has at most one per source.
 * `events` holds only the switches ever set; unset ones read as GitLab's column defaults.
 */
export interface SettingDoc {
  _id: string;
  userId: number;
  sourceType: SourceType;
  sourceId: number | null;
  level: NotificationLevel;
  events: Partial<Record<string, boolean>>;
  /** For the global setting: the chosen address, null for "the primary e-mail". */
  notificationEmail: string | null;
  updatedAt: Date;
}

/** The user's addresses, from identity user events (the primary plus the secondary ones). */
export interface UserDoc {
  _id: number;
  email: string;
  emails: string[];
  occurredAt: string;
}

/** Group and project ancestry, from identity events, for effective-level resolution without a request. */
export interface NamespaceDoc {
  _id: string;
  kind: 'group' | 'project';
  sourceId: number;
  /** Groups above, outermost first (the identity events' order). */
  ancestorGroupIds: number[];
  destroyed: boolean;
}

export interface NotificationsModels {
  settings: Model<SettingDoc>;
  users: Model<UserDoc>;
  namespaces: Model<NamespaceDoc>;
}

export function settingId(userId: number, sourceType: SourceType, sourceId: number | null): string {
  return sourceType === 'global' ? `${userId}:global` : `${userId}:${sourceType}:${sourceId}`;
}

export function createModels(connection: Connection): NotificationsModels {
  const settings = documentSchema<SettingDoc>(
    {
      _id: String,
      userId: { type: Number, index: true },
      sourceType: String,
      sourceId: Number,
      level: String,
      events: { type: Schema.Types.Mixed, default: {} },
      notificationEmail: { type: String, default: null },
      updatedAt: Date,
    },
    { minimize: false },
  );
  settings.index({ sourceType: 1, sourceId: 1 });
  const users = documentSchema<UserDoc>({ _id: Number, email: String, emails: [String], occurredAt: String });
  const namespaces = documentSchema<NamespaceDoc>({
    _id: String,
    kind: String,
    sourceId: Number,
    ancestorGroupIds: [Number],
    destroyed: Boolean,
  });
  namespaces.index({ ancestorGroupIds: 1 });
  return {
    settings: defineModel(connection, 'NotificationSetting', settings, 'notification_settings'),
    users: defineModel(connection, 'User', users, 'users'),
    namespaces: defineModel(connection, 'Namespace', namespaces, 'namespaces'),
  };
}
