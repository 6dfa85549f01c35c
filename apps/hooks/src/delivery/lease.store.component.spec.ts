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

/** One hook's lease, taken or renewed for a minute. */
const take = async (hookId: number, owner: string) => (await leases.takeLeases([hookId], owner, 60_000))[0];

const lapse = (hookId: number) =>
  models.leases.updateOne({ _id: hookId }, { $set: { until: new Date(Date.now() - 1) } });

describe('Hook queue leases', () => {
  it('When a lease is held, then another owner gets it only once it lapsed', async () => {
    const hookId = nextId++;
    expect(await take(hookId, 'a')).toBe(true);
    expect(await take(hookId, 'b')).toBe(false);
    expect(await take(hookId, 'a')).toBe(true);
    await lapse(hookId);
    expect(await take(hookId, 'b')).toBe(true);
    await leases.releaseLeases([hookId], 'a');
    expect(await take(hookId, 'a')).toBe(false);
  });

  it('When several leases are taken in one round trip, then each is taken unless another owner holds it live', async () => {
    const [free, own, held, lapsed] = [nextId++, nextId++, nextId++, nextId++];
    await take(own, 'a');
    await take(held, 'b');
    await take(lapsed, 'b');
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
