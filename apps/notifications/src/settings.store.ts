import { settingId, type NotificationsModels, type SettingDoc, type SourceType } from './models';

export { settingId };

/** Where a setting belongs: the user, and the global setting or one group's or project's. */
export interface SettingKey {
  userId: number;
  sourceType: SourceType;
  sourceId: number | null;
}

const idOf = (key: SettingKey): string => settingId(key.userId, key.sourceType, key.sourceId);

/** The notification_settings collection: one document per user and source, keyed by `settingId`. */
export function createSettingsStore(models: NotificationsModels) {
  function find(key: SettingKey): Promise<SettingDoc | null> {
    return models.settings.findById(idOf(key)).lean<SettingDoc>().exec();
  }

  /** The stored ones among these keys (absent sources read as their defaults), by `settingId`. */
  async function findMany(keys: SettingKey[]): Promise<Map<string, SettingDoc>> {
    const docs = await models.settings.find({ _id: { $in: keys.map(idOf) } }).lean<SettingDoc[]>();
    return new Map(docs.map((doc) => [doc._id, doc]));
  }

  /** Sets the given fields, creating the document with `defaults` for what is not set (one upsert). */
  async function upsert(
    key: SettingKey,
    set: Record<string, unknown>,
    defaults: Record<string, unknown>,
  ): Promise<void> {
    await models.settings.updateOne(
      { _id: idOf(key) },
      { $set: { ...set, updatedAt: new Date() }, $setOnInsert: { ...key, ...defaults } },
      { upsert: true },
    );
  }

  /** Unsets the global setting's chosen address when it is not among `addresses`. */
  async function forgetNotificationEmail(userId: number, addresses: string[]): Promise<void> {
    await models.settings.updateOne(
      { _id: settingId(userId, 'global', null), notificationEmail: { $ne: null, $nin: addresses } },
      { $set: { notificationEmail: null, updatedAt: new Date() } },
    );
  }

  /** Every user's setting of one group or project. */
  async function removeSource(sourceType: 'group' | 'project', sourceId: number): Promise<number> {
    const result = await models.settings.deleteMany({ sourceType, sourceId });
    return result.deletedCount;
  }

  return { find, findMany, upsert, forgetNotificationEmail, removeSource };
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
