import type { Model } from 'mongoose';
import type { OpsgenieDoc } from './alerts.models';

/** A project's Opsgenie link-out; a project that never saved one has it inactive. */
export interface OpsgenieSettings {
  active: boolean;
  apiUrl: string | null;
}

/** Opsgenie settings (`opsgenie`), one document per project keyed by the project id. */
/** `written` runs after every write, so the notify lookups' cache (notify-lookup.ts) forgets what it held. */
export function createOpsgenieStore(model: Model<OpsgenieDoc>, written: () => void) {
  return {
    async isActive(projectId: number): Promise<boolean> {
      return Boolean(await model.exists({ _id: projectId, active: true }));
    },

    async get(projectId: number): Promise<OpsgenieSettings> {
      const doc = await model.findById(projectId).lean<OpsgenieDoc>();
      return { active: doc?.active ?? false, apiUrl: doc?.apiUrl ?? null };
    },

    async save(projectId: number, settings: OpsgenieSettings): Promise<OpsgenieSettings> {
      const doc = await model
        .findOneAndUpdate({ _id: projectId }, { $set: settings }, { upsert: true, new: true })
        .lean<OpsgenieDoc>();
      written();
      return { active: doc?.active ?? settings.active, apiUrl: doc?.apiUrl ?? settings.apiUrl };
    },
  };
}
export type OpsgenieStore = ReturnType<typeof createOpsgenieStore>;
