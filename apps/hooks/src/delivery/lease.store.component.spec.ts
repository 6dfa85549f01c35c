import { createTestRuntime, type TestRuntime } from '@gl/testing';
import type { HooksConfig } from '../app';
import { createDeliveryModels, type DeliveryModels } from './delivery.models';
import { createLeaseStore } from './lease.store';

let runtime: TestRuntime<HooksConfig>;
let models: DeliveryModels;
let leases: ReturnType<typeof createLeaseStore>;
let nextId = 700_000 + Math.floor(Math.random() * 1000) * 100;

beforeAll(async () => {
  runtime = await createTestRuntime<HooksConfig>('hooks-leases', {});
  models = createDeliveryModels(runtime.connection);
  leases = createLeaseStore(models);
});

afterAll(() => runtime.close());

const lapse = (hookId: number) =>
  models.leases.updateOne({ _id: hookId }, { $set: { until: new Date(Date.now() - 1) } });

describe('Hook queue leases', () => {
  it('When a lease is held, then another owner gets it only once it lapsed', async () => {
    const hookId = nextId++;
    expect(await leases.takeLease(hookId, 'a', 60_000)).toBe(true);
    expect(await leases.takeLease(hookId, 'b', 60_000)).toBe(false);
    expect(await leases.takeLease(hookId, 'a', 60_000)).toBe(true);
    await lapse(hookId);
    expect(await leases.takeLease(hookId, 'b', 60_000)).toBe(true);
    await leases.releaseLease(hookId, 'a');
    expect(await leases.takeLease(hookId, 'a', 60_000)).toBe(false);
  });

  it('When several leases are taken in one round trip, then each is taken unless another owner holds it live', async () => {
    const [free, own, held, lapsed] = [nextId++, nextId++, nextId++, nextId++];
    await leases.takeLease(own, 'a', 60_000);
    await leases.takeLease(held, 'b', 60_000);
    await leases.takeLease(lapsed, 'b', 60_000);
    await lapse(lapsed);
    expect(await leases.takeLeases([free, own, held, lapsed], 'a', 60_000)).toEqual([
      true,
      true,
      false,
      true,
    ]);
    const owners = await models.leases
      .find({ _id: { $in: [free, own, held, lapsed] } })
      .sort({ _id: 1 })
      .lean();
    expect(owners.map((lease) => lease.owner)).toEqual(['a', 'a', 'b', 'a']);
    // Releasing them all releases only the owner's own.
    await leases.releaseLeases([free, own, held, lapsed], 'a');
    expect(await models.leases.find({ _id: { $in: [free, own, held, lapsed] } }).lean()).toEqual([
      expect.objectContaining({ _id: held, owner: 'b' }),
    ]);
  });
});
