import type { Model } from 'mongoose';
import type { ErrorTrackingDoc } from './alerts.models';

/** A project's error tracking settings. */
export type ErrorTrackingSettings = Omit<ErrorTrackingDoc, '_id'> & { projectId: number };
export type ErrorTrackingChanges = Partial<Omit<ErrorTrackingSettings, 'projectId' | 'updatedAt'>>;

function decode(doc: ErrorTrackingDoc | null): ErrorTrackingSettings | null {
  if (!doc) return null;
  const { _id, ...settings } = doc;
  return { projectId: _id, ...settings };
}

/** Error tracking settings (`error_tracking_settings`), one document per project keyed by the project id. */
export function createErrorTrackingStore(model: Model<ErrorTrackingDoc>) {
  const save = async (projectId: number, changes: ErrorTrackingChanges, upsert: boolean) =>
    decode(
      await model
        .findOneAndUpdate(
          { _id: projectId },
          { $set: { ...changes, updatedAt: new Date() } },
          { upsert, new: true },
        )
        .lean<ErrorTrackingDoc>(),
    );

  return {
    async find(projectId: number): Promise<ErrorTrackingSettings | null> {
      return decode(await model.findById(projectId).lean<ErrorTrackingDoc>());
    },

    /** Changes existing settings; null when the project has none. */
    update(projectId: number, changes: ErrorTrackingChanges): Promise<ErrorTrackingSettings | null> {
      return save(projectId, changes, false);
    },

    /** Creates or changes the project's settings. */
    async upsert(projectId: number, changes: ErrorTrackingChanges): Promise<ErrorTrackingSettings> {
      return (await save(projectId, changes, true))!;
    },
  };
}
export type ErrorTrackingStore = ReturnType<typeof createErrorTrackingStore>;
