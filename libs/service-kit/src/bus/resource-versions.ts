import { Kvm, type KV } from '@nats-io/kv';
import { VERSIONED_SERVICES, type NamespaceContext } from '@gl/contracts';
import type { Logger } from 'pino';
import type { Bus } from './bus';
import { whileUnavailable } from './cluster-waits';
import { coalescedPuts } from './coalesced-puts';

/**
 * Versions of what the services answer, kept where every process sees them (a JetStream key-value bucket),
 * so the gateway can answer a conditional GET with 304 without forwarding it: the entity tag of a
 * namespaced read names the versions of the keys its answer depends on (readKeys), and every write bumps
 * the keys of what it may change (writeKeys) after it is stored and before it is answered. A version is
 * the bucket's revision of its key: it only grows, and an absent key is 0.
 *
 * The keys, per service `S`:
 * - `S.p.<id>`: the project's own reads; bumped by writes addressed to the project.
 * - `S.g.<id>`: a group's reads (which gather its projects and subgroups); bumped by writes addressed to any
 *   project below it, since those change what the group's lists show.
 * - `S.all`: every read of the service; bumped by writes whose reach is not one project: writes addressed
 *   to a group or to nothing, writes that touch other projects (issue links, promotions, merges), and
 *   whatever the service's bus consumers apply (copies of labels, users, projects; incidents from alerts).
 * - `identity.all`: every read; bumped by the gateway's own writes (users, projects, groups, members),
 *   which change how answers are rendered (names, paths) or who may see them.
 * - `hooks.parents`: not a read's key; which projects and groups have hooks (apps/hooks/src/hooked-parents.ts).
 */
export const RESOURCE_VERSIONS_BUCKET = 'gl_resource_versions';

export const IDENTITY_VERSION_KEY = 'identity.all';

export const serviceVersionKey = (service: string): string => `${service}.all`;

/**
 * Whether bumping `key` can change a tag: keys of services that answer no versioned read (hooks,
 * notifications) are never read, and their bumps would only cost CPU.
 */
export function versionKeyIsRead(key: string): boolean {
  const service = key.slice(0, key.indexOf('.'));
  return key === IDENTITY_VERSION_KEY || VERSIONED_SERVICES.has(service);
}

/** The keys a namespaced read's answer depends on. */
export function readKeys(service: string, namespace: Pick<NamespaceContext, 'kind' | 'id'>): string[] {
  const own = `${service}.${namespace.kind === 'project' ? 'p' : 'g'}.${namespace.id}`;
  return [IDENTITY_VERSION_KEY, serviceVersionKey(service), own];
}

/**
 * The keys a write bumps: a project's own key and its groups' keys, or the service's key when the write
 * is not confined to one project (`reachesAcross`, a group, no namespace).
 */
export function writeKeys(
  service: string,
  namespace: Pick<NamespaceContext, 'kind' | 'id' | 'ancestorGroupIds'> | null,
  reachesAcross = false,
): string[] {
  if (!namespace || namespace.kind !== 'project' || reachesAcross) return [serviceVersionKey(service)];
  return [
    `${service}.p.${namespace.id}`,
    ...namespace.ancestorGroupIds.map((groupId) => `${service}.g.${groupId}`),
  ];
}

export interface ResourceVersions {
  /** Bumps each key; resolves once the bucket has stored every bump. */
  bump(keys: string[]): Promise<void>;
  /** The keys' versions as the bucket holds them now (0 for a key never bumped). */
  current(keys: string[]): Promise<number[]>;
  /**
   * Keeps a copy of every key's version in this process, updated as bumps arrive (milliseconds behind
   * the bucket): for tagging answers, never for deciding that nothing changed (`current` decides that).
   */
  follow(logger: Logger): Promise<(key: string) => number>;
}

const STREAM = `KV_${RESOURCE_VERSIONS_BUCKET}`;
const subjectOf = (key: string): string => `$KV.${RESOURCE_VERSIONS_BUCKET}.${key}`;

/**
 * Opens (creating it once) the bucket; one value per key, kept until replaced. `replicas` as the event
 * stream's (NATS_STREAM_REPLICAS): a bucket kept on one node of a cluster went with that node, and every
 * process that started then failed. While a cluster elects a leader it waits, as the stream does.
 */
export async function openResourceVersions(
  bus: Pick<Bus, 'js' | 'jsm'>,
  options: { replicas?: number; waitMs?: number; logger?: Logger } = {},
): Promise<ResourceVersions> {
  const kv: KV = await whileUnavailable(
    () => new Kvm(bus.js).create(RESOURCE_VERSIONS_BUCKET, { history: 1, replicas: options.replicas ?? 1 }),
    { waitMs: options.waitMs ?? 60_000, what: 'resource versions bucket', logger: options.logger },
  );
  const empty = new Uint8Array(0);
  const put = coalescedPuts((key) => kv.put(key, empty));
  const oneByOne = (keys: string[]) =>
    Promise.all(keys.map(async (key) => (await kv.get(key))?.revision ?? 0));
  // One request for every key (a batched direct get, NATS 2.11 and up) costs the gateway two thirds of
  // three single gets. When it fails (an older server refuses it), keys are read alone for a minute.
  let batchAgainAt = 0;
  return {
    async bump(keys) {
      await Promise.all(keys.map(put));
    },
    async current(keys) {
      if (Date.now() < batchAgainAt) return oneByOne(keys);
      try {
        const found = new Map<string, number>();
        const messages = await bus.jsm.direct.getLastMessagesFor(STREAM, { multi_last: keys.map(subjectOf) });
        for await (const message of messages) found.set(message.subject, message.seq);
        return keys.map((key) => found.get(subjectOf(key)) ?? 0);
      } catch {
        batchAgainAt = Date.now() + 60_000;
        return oneByOne(keys);
      }
    },
    async follow(logger) {
      const known = new Map<string, number>();
      const watch = await kv.watch({ key: '>' });
      void (async () => {
        for await (const entry of watch) {
          if ((known.get(entry.key) ?? 0) < entry.revision) known.set(entry.key, entry.revision);
        }
      })().catch((err: unknown) => logger.warn({ err }, 'resource versions: watch ended'));
      return (key) => known.get(key) ?? 0;
    },
  };
}
