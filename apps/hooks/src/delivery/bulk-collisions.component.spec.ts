import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { createTestRuntime, type TestRuntime } from '@gl/testing';
import type { HooksConfig } from '../app';
import { createDeliveryModels, type DeliveryModels } from './delivery.models';
import { discussionsEvent } from './delivery.test-helpers';
import { createSampleStore } from './samples.store';

let runtime: TestRuntime<HooksConfig>;
let models: DeliveryModels;
let nextId = 500_000 + Math.floor(Math.random() * 1000) * 100;

beforeAll(async () => {
  runtime = await createTestRuntime<HooksConfig>('hooks-bulk-collisions', {});
  models = createDeliveryModels(runtime.connection);
});

afterAll(() => runtime.close());

describe('Bulk upserts that collide (FerretDB stops an unordered bulk update at the first)', () => {
  it('When a batch holds an older sample of one project, then the other projects still get theirs', async () => {
    const samples = createSampleStore(models);
    const [first, other] = [nextId++, nextId++];
    const event = (projectId: number, occurredAt: string) => ({
      ...discussionsEvent(DOMAIN_EVENT_TYPES.discussions.issueOpened, projectId, {}),
      occurredAt,
    });
    const newer = event(first, '2026-01-02T00:00:00.000Z');
    await samples.recordMany([newer]);
    // The first project's event is older than its kept sample (its upsert collides); the other's is new.
    const late = event(other, '2026-01-01T00:00:00.000Z');
    await samples.recordMany([event(first, '2026-01-01T00:00:00.000Z'), late]);
    expect(await samples.newest(first, 'issue')).toEqual(newer);
    expect(await samples.newest(other, 'issue')).toEqual(late);
  });
});
