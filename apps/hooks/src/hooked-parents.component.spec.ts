import { createCounters } from '@gl/service-kit';
import { createTestRuntime, eventually, type TestRuntime } from '@gl/testing';
import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import type { HooksConfig } from './app';
import { createHookedParents, type HookedParents } from './hooked-parents';
import { createHooksModels, type HooksModels } from './hooks.models';
import { createHooksStore, type NewHook } from './hooks.store';
import { createDelivery } from './delivery';
import { discussionsEvent } from './delivery/delivery.test-helpers';
import { fakeDiscussions, testIssue } from './payloads/fake-discussions.test-helpers';

let runtime: TestRuntime<HooksConfig>;
let models: HooksModels;
const base = 700_000 + Math.floor(Math.random() * 1000) * 100;
let nextParent = base;

const newHook = (fields: Partial<NewHook> = {}): NewHook => ({
  url: 'http://127.0.0.1:9/hook',
  ancestorGroupIds: [],
  rootGroupId: null,
  ancestryAt: new Date().toISOString(),
  name: null,
  description: null,
  token: null,
  enableSslVerification: true,
  events: { issues_events: true },
  pushEventsBranchFilter: null,
  branchFilterStrategy: 'wildcard',
  customWebhookTemplate: null,
  urlVariables: [],
  customHeaders: [],
  ...fields,
});

/** A process's copy of the hooked parents and the store its API writes through. */
function processWith(): { parents: HookedParents; store: ReturnType<typeof createHooksStore> } {
  const parents = createHookedParents(models.hooks, runtime.versions, runtime.logger);
  return {
    parents,
    store: createHooksStore(models, createCounters(runtime.connection), () => parents.added()),
  };
}

beforeAll(async () => {
  runtime = await createTestRuntime<HooksConfig>('hooks-parents', {
    HOOKS_SENDER_POLL_MS: 50,
    GITLAB_EXTERNAL_URL: 'http://gl.test',
  });
  models = createHooksModels(runtime.connection);
  await models.hooks.createIndexes();
});

afterAll(() => runtime.close());

describe('The delivery consumer with the hooked parents', () => {
  const T = DOMAIN_EVENT_TYPES.discussions;
  const source = fakeDiscussions();

  // First in this file: no group has hooks yet, so not even the project's copy is read.
  it('When no hook can reach the project, then the event is dropped without reading its copy or hooks; once another process adds a hook, the next event is queued', async () => {
    const consuming = processWith();
    const api = processWith();
    const delivery = createDelivery({
      runtime,
      hooks: models.hooks,
      hookedParents: consuming.parents,
      allowLocalRequests: true,
      source,
    });
    await delivery.models.deliveries.createIndexes();
    const project = nextParent++;
    const event = (iid: number) => {
      source.issues.set(`${project}:${iid}`, testIssue(project, iid));
      return discussionsEvent(T.issueOpened, project, {
        targetId: project * 1000 + iid,
        targetIid: iid,
        targetTitle: `Issue ${iid}`,
      });
    };
    await consuming.parents.current();
    const hookReads = jest.spyOn(models.hooks, 'find');
    const copyReads = jest.spyOn(delivery.models.projects, 'findById');
    try {
      await delivery.subscription.handle(event(1));
      expect(hookReads).not.toHaveBeenCalled();
      expect(copyReads).not.toHaveBeenCalled();
    } finally {
      hookReads.mockRestore();
      copyReads.mockRestore();
    }

    const hook = await api.store.insert({ kind: 'project', id: project }, newHook());
    await delivery.subscription.handle(event(2));
    const queued = await eventually(
      () => delivery.models.deliveries.find({ hookId: hook._id }).lean(),
      (rows) => rows.length === 1,
    );
    expect(queued).toHaveLength(1);
  });
});

describe('Which parents have hooks, kept per process', () => {
  it('When nothing changed, then the copy is served without reading the hooks again', async () => {
    const a = processWith();
    const project = nextParent++;
    await a.store.insert({ kind: 'project', id: project }, newHook());
    expect((await a.parents.current())!.projects.has(project)).toBe(true);
    const reads = jest.spyOn(models.hooks, 'find');
    try {
      await a.parents.current();
      await a.parents.current();
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it('When another process stores a project or group hook, then this process sees it on its next read', async () => {
    const a = processWith();
    const b = processWith();
    const project = nextParent++;
    const group = nextParent++;
    const before = (await a.parents.current())!;
    expect(before.projects.has(project)).toBe(false);
    expect(before.groups.has(group)).toBe(false);

    await b.store.insert({ kind: 'project', id: project }, newHook());
    await b.store.insert({ kind: 'group', id: group }, newHook());

    const after = (await a.parents.current())!;
    expect(after.projects.has(project)).toBe(true);
    expect(after.groups.has(group)).toBe(true);
  });

  it('When the versions cannot be read, then there is no copy and the caller reads the hooks', async () => {
    const broken = createHookedParents(
      models.hooks,
      { current: () => Promise.reject(new Error('bucket down')), bump: () => Promise.resolve() },
      runtime.logger,
    );
    expect(await broken.current()).toBeNull();
  });
});
