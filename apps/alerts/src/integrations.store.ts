import type { FilterQuery, Model } from 'mongoose';
import { findPage, isDuplicateKeyError, type Counters } from '@gl/service-kit';
import type { IntegrationDoc, IntegrationType } from './alerts.models';

/** An alert integration as routers and presenters use it; its uniqueness slot stays in storage. */
export type Integration = Omit<IntegrationDoc, 'slot'>;
export type NewIntegration = Omit<Integration, '_id' | 'createdAt' | 'updatedAt'>;
export type IntegrationChanges = Partial<
  Pick<Integration, 'name' | 'active' | 'createIncident' | 'apiUrl' | 'tokenHash'>
>;

function decode(doc: IntegrationDoc | null): Integration | null {
  if (!doc) return null;
  const { slot, ...integration } = doc;
  return integration;
}

/**
 * Alert integrations (`integrations`). Each takes a slot unique per project: `prometheus` for the single
 * Prometheus integration, `http` for the one HTTP endpoint a project without multiple integrations may
 * have (so concurrent creations cannot both succeed), `http:<id>` otherwise.
 */
/** `written` runs after every write, so the notify lookups' cache (notify-lookup.ts) forgets what it held. */
export function createIntegrationsStore(
  model: Model<IntegrationDoc>,
  counters: Counters,
  written: () => void,
) {
  const findOne = async (filter: FilterQuery<IntegrationDoc>) =>
    decode(await model.findOne(filter).lean<IntegrationDoc>());

  return {
    /** One page of the project's HTTP integrations, oldest first, and how many it has. */
    async pageOfHttp(
      projectId: number,
      skip: number,
      limit: number,
    ): Promise<{ items: Integration[]; total: number }> {
      const filter = { projectId, type: 'http' as const };
      const { docs, total } = await findPage(model, filter, { _id: 1 }, { skip, perPage: limit });
      return { items: docs.map((doc) => decode(doc)!), total };
    },

    findHttp(projectId: number, id: number): Promise<Integration | null> {
      return findOne({ _id: id, projectId, type: 'http' });
    },

    findPrometheus(projectId: number): Promise<Integration | null> {
      return findOne({ projectId, slot: 'prometheus' });
    },

    /** The active integration a notify call addresses: Prometheus, or the HTTP endpoint `identifier`. */
    findActive(projectId: number, type: IntegrationType, identifier: string): Promise<Integration | null> {
      return findOne(
        type === 'prometheus'
          ? { projectId, slot: 'prometheus', active: true }
          : { projectId, type: 'http', endpointIdentifier: identifier, active: true },
      );
    },

    async hasHttp(projectId: number): Promise<boolean> {
      return Boolean(await model.exists({ projectId, type: 'http' }));
    },

    async hasActive(projectId: number): Promise<boolean> {
      return Boolean(await model.exists({ projectId, active: true }));
    },

    /**
     * Stores a new integration under a fresh id; null when `single` and the project already has its HTTP
     * endpoint.
     */
    async create(fields: NewIntegration, single = false): Promise<Integration | null> {
      const id = await counters.next('integrations');
      const now = new Date();
      const integration: Integration = { _id: id, ...fields, createdAt: now, updatedAt: now };
      const slot = fields.type === 'prometheus' ? 'prometheus' : single ? 'http' : `http:${id}`;
      try {
        await model.create({ ...integration, slot });
      } catch (err) {
        if (fields.type === 'http' && isDuplicateKeyError(err)) return null;
        throw err;
      }
      written();
      return integration;
    },

    /** Applies `changes`; null when the integration is gone. */
    async update(id: number, changes: IntegrationChanges): Promise<Integration | null> {
      const $set = { ...changes, updatedAt: new Date() };
      const updated = await model
        .findOneAndUpdate({ _id: id }, { $set }, { new: true })
        .lean<IntegrationDoc>();
      written();
      return decode(updated);
    },

    async remove(id: number): Promise<void> {
      await model.deleteOne({ _id: id });
      written();
    },
  };
}
export type IntegrationsStore = ReturnType<typeof createIntegrationsStore>;
