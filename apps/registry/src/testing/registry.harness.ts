import { randomUUID } from 'node:crypto';
import {
  EVENT_TYPES,
  REGISTRY_EVENTS_MEDIA_TYPE,
  type EventEnvelope,
  type NamespaceContext,
  type Visibility,
} from '@gl/contracts';
import type { Subscription } from '@gl/service-kit';
import {
  gatewayEvent,
  groupEventFields,
  projectEventFields,
  outboxEvents,
  startServiceHarness,
  testNamespace,
  OWNER,
  PRINCIPAL_LEVELS,
  ROOT,
  type ServiceHarnessBase,
  type Reply,
} from '@gl/testing';
import { createRegistryApp, createRegistryWorker } from '../app';
import type { RegistryConfig } from '../config';
import { registryModels, type RegistryModels } from '../models';
import { createRegistryStores, type RegistryStores } from '../stores';

export const SECRET = 'registry-notification-secret-1234';
export const HOST = 'registry.test:5000';

/** The shared principals' levels, the administrator counting as 60 (`accessLevelOf`). */
export const LEVELS: Record<number, number> = { ...PRINCIPAL_LEVELS, [ROOT.id]: 60 };

export interface SeededProject {
  id: number;
  fullPath: string;
  visibility: Visibility;
  ancestorGroupIds: number[];
  ns: NamespaceContext;
}

export type { Reply } from '@gl/testing';

export interface RegistryHarness extends ServiceHarnessBase<RegistryConfig> {
  models: RegistryModels;
  /** Stores over `models`, for specs that run the worker's steps (deleteTags, a second worker) directly. */
  stores: RegistryStores;
  projection: Subscription;
  worker: ReturnType<typeof createRegistryWorker>['worker'];
  notify(events: unknown[], authorization?: string): Promise<Reply>;
  identity(type: string, data: Record<string, unknown>): Promise<void>;
  seedProject(
    fullPath: string,
    options?: { visibility?: Visibility; ancestorGroupIds?: number[] },
  ): Promise<SeededProject>;
  seedGroup(
    fullPath: string,
    options?: { visibility?: Visibility; ancestorGroupIds?: number[] },
  ): Promise<NamespaceContext>;
  addMember(
    sourceType: 'group' | 'project',
    sourceId: number,
    userId: number,
    accessLevel: number,
  ): Promise<void>;
  /** Pushes a tag through a notification, returns the repository id. */
  pushTag(repository: string, tag: string, digest?: string, timestamp?: string): Promise<number>;
  /** Job events the API wrote with the repositories and not yet relayed. */
  pendingJobs(): Promise<EventEnvelope[]>;
}

let nextId = 5000;
export const nextTestId = (): number => nextId++;

export function pushEvent(repository: string, tag: string, digest: string, timestamp?: string) {
  return {
    id: randomUUID(),
    timestamp: timestamp ?? new Date().toISOString(),
    action: 'push',
    target: {
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      size: 528,
      digest,
      length: 528,
      repository,
      url: `http://${HOST}/v2/${repository}/manifests/${digest}`,
      tag,
    },
    request: { id: randomUUID(), addr: '127.0.0.1', host: HOST, method: 'PUT', useragent: 'skopeo' },
    actor: {},
    source: { addr: 'registry:5000', instanceID: randomUUID() },
  };
}

export const digestOf = (seed: string): string =>
  `sha256:${Buffer.from(seed).toString('hex').padEnd(64, '0').slice(0, 64)}`;

export async function startRegistryHarness(
  config: Partial<Omit<RegistryConfig, keyof import('@gl/service-kit').BaseServiceConfig>> = {},
): Promise<RegistryHarness> {
  let worker!: RegistryHarness['worker'];
  const { runtime, instance, call, close } = await startServiceHarness<
    ReturnType<typeof createRegistryApp>,
    RegistryConfig
  >({
    service: 'registry',
    config: {
      REGISTRY_NOTIFICATION_SECRET: SECRET,
      REGISTRY_HOST: HOST,
      REGISTRY_CLEANUP_MAX_TAGS: 0,
      ...config,
    },
    createApp(runtime) {
      const app = createRegistryApp(runtime);
      ({ worker } = createRegistryWorker(runtime));
      return app;
    },
    caller: { principal: OWNER, levels: LEVELS, maxLevel: 50 },
  });
  const projection = instance.subscriptions![0]!;
  const models = registryModels(runtime.connection);

  async function identity(type: string, data: Record<string, unknown>): Promise<void> {
    await projection.handle(gatewayEvent(type, data));
  }

  /** A group or project announced by its identity event, as the gateway would publish it. */
  async function seedNamespace(
    kind: 'group' | 'project',
    fullPath: string,
    options: { ancestorGroupIds?: number[]; visibility?: Visibility },
  ) {
    const id = nextTestId();
    const ancestorGroupIds = options.ancestorGroupIds ?? [];
    const visibility = options.visibility ?? 'private';
    const fields = kind === 'group' ? groupEventFields : projectEventFields;
    const type = kind === 'group' ? EVENT_TYPES.identity.groupCreated : EVENT_TYPES.identity.projectCreated;
    await identity(type, fields(id, { fullPath, ancestorGroupIds, visibility }));
    return { id, fullPath, visibility, ancestorGroupIds };
  }

  const harness: RegistryHarness = {
    runtime,
    models,
    stores: createRegistryStores(models),
    projection,
    worker,
    call,
    identity,
    notify(events, authorization = SECRET) {
      return call('POST', '/container_registry_event/events', {
        as: null,
        body: JSON.stringify({ events }),
        headers: { 'content-type': REGISTRY_EVENTS_MEDIA_TYPE, authorization },
      });
    },
    async seedGroup(fullPath, options = {}) {
      const seeded = await seedNamespace('group', fullPath, options);
      return testNamespace({ kind: 'group', ...seeded, path: fullPath });
    },
    async seedProject(fullPath, options = {}) {
      const seeded = await seedNamespace('project', fullPath, options);
      const ns = testNamespace({ kind: 'project', ...seeded, path: fullPath.split('/').pop() });
      return { ...seeded, ns };
    },
    async addMember(sourceType, sourceId, userId, accessLevel) {
      await identity(EVENT_TYPES.identity.memberAdded, {
        sourceType,
        sourceId,
        userId,
        accessLevel,
        expiresAt: null,
      });
    },
    async pushTag(repository, tag, digest = digestOf(`${repository}:${tag}`), timestamp) {
      const reply = await harness.notify([pushEvent(repository, tag, digest, timestamp)]);
      if (reply.status !== 200) throw new Error(`notify failed: ${reply.status}`);
      const repo = await models.repositories.findOne({ path: repository.toLowerCase() }).lean();
      if (!repo) throw new Error(`no repository for ${repository}`);
      return repo._id;
    },
    async pendingJobs() {
      const events = await outboxEvents(runtime.connection, ['repositories']);
      return events.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
    },
    close,
  };
  return harness;
}
