import { createHash, randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { BatchWriter, claimIds, swapStrings, waitFor, withoutOutbox, withProgress, type Doc } from './clone';

/**
 * Users with tokens, group members, copied from one template user made through the API: 10,000 users
 * through POST /users run at about 23 a second (scrypt password hashes, one identity event each, applied
 * by five services), which alone would take the fixture's whole time budget. The template's documents are
 * copied in the gateway (user, personal namespace, route, e-mail, token, membership) and in every service
 * that keeps a copy of users or memberships, with ids claimed from each database's own sequences.
 */
export interface TemplateUser {
  id: number;
  username: string;
  name: string;
}

export interface LoadedUsers {
  ids: number[];
  /** Personal access tokens (scope api), one per user, same order as `ids`. */
  tokens: string[];
}

/**
 * Where services keep identity copies: users by id, memberships by user, personal namespaces by id, and
 * the membership revision applied for the user.
 */
const COPY_SERVICES = ['boards', 'discussions', 'notifications', 'events', 'registry', 'alerts'];
/** The copies the template must have before it is copied (the services' consumers write them). */
const EXPECTED = [
  ...['boards', 'discussions', 'notifications', 'events'].map((s) => `${s}.users`),
  ...['discussions', 'events', 'registry'].map((s) => `${s}.members`),
];
const COPY_WAIT_MS = 60_000;

type Connections = Record<string, mongoose.Connection>;

interface NewUser {
  id: number;
  namespaceId: number;
  token: string;
}

/** Gateway collections whose copies take ids from the collection's own sequence (one per copy). */
const GATEWAY_SEQUENCES = ['user_emails', 'personal_access_tokens', 'members'];

/** What a gateway copy changes besides the swapped names (sequenced ids come from GATEWAY_SEQUENCES). */
const GATEWAY_KEYS: Record<string, (user: NewUser) => Doc> = {
  users: (u) => ({ _id: u.id, namespaceId: u.namespaceId }),
  namespaces: (u) => ({ _id: u.namespaceId, ownerId: u.id }),
  routes: (u) => ({ sourceId: u.namespaceId }),
  user_emails: (u) => ({ userId: u.id }),
  personal_access_tokens: (u) => ({
    userId: u.id,
    tokenHash: createHash('sha256').update(u.token).digest('hex'),
  }),
  members: (u) => ({ userId: u.id }),
};

/** What a service's copy changes besides the swapped names, by collection. */
const SERVICE_KEYS: Record<string, (doc: Doc, user: NewUser) => Doc> = {
  users: (_, u) => ({ _id: u.id }),
  namespaces: (_, u) => ({ _id: u.namespaceId }),
  projection_revisions: (_, u) => ({ _id: `user:${u.id}` }),
  members: (doc, u) => ({ _id: `${String(doc.sourceType)}:${String(doc.sourceId)}:${u.id}`, userId: u.id }),
};

async function templateCopies(
  connections: Connections,
  t: TemplateUser & { namespaceId: number },
): Promise<Map<string, Doc[]>> {
  const found = new Map<string, Doc[]>();
  for (const service of COPY_SERVICES) {
    const db = connections[service]!;
    const queries: [string, Doc][] = [
      ['users', { _id: t.id }],
      ['members', { userId: t.id }],
      ['namespaces', { _id: t.namespaceId }],
      // The revision of the user's memberships the service has applied: requests wait until it has.
      ['projection_revisions', { _id: `user:${t.id}` }],
    ];
    for (const [collection, filter] of queries) {
      const docs = (await db.collection(collection).find(filter).toArray()) as Doc[];
      if (docs.length > 0) found.set(`${service}.${collection}`, docs);
    }
  }
  return found;
}

async function gatewayTemplate(
  gateway: mongoose.Connection,
  t: TemplateUser & { namespaceId: number },
): Promise<Map<string, Doc[]>> {
  const queries: [string, Doc][] = [
    ['users', { _id: t.id }],
    ['namespaces', { _id: t.namespaceId }],
    ['routes', { sourceType: 'namespace', sourceId: t.namespaceId }],
    ['user_emails', { userId: t.id }],
    ['personal_access_tokens', { userId: t.id }],
    ['members', { userId: t.id }],
  ];
  const found = new Map<string, Doc[]>();
  for (const [collection, filter] of queries) {
    found.set(collection, await gateway.collection(collection).find(filter).toArray());
  }
  return found;
}

export async function loadUsers(options: {
  mongoUrl: string;
  databasePrefix: string;
  template: TemplateUser;
  count: number;
  suffix: string;
  log: (line: string) => void;
}): Promise<LoadedUsers> {
  const { count, log } = options;
  const connections: Connections = {};
  for (const service of ['gateway', ...COPY_SERVICES]) {
    connections[service] = await mongoose
      .createConnection(options.mongoUrl, { dbName: `${options.databasePrefix}${service}` })
      .asPromise();
  }
  try {
    const gateway = connections.gateway!;
    const userDoc = await gateway.collection('users').findOne({ _id: options.template.id as never });
    const t = { ...options.template, namespaceId: userDoc!.namespaceId as number };
    let copies = new Map<string, Doc[]>();
    const complete = await waitFor(async () => {
      copies = await templateCopies(connections, t);
      return EXPECTED.every((key) => copies.has(key));
    }, COPY_WAIT_MS);
    if (!complete) {
      log(
        `mixed: the template user's copies never reached ${EXPECTED.filter((k) => !copies.has(k)).join(', ')}`,
      );
    }
    log(`mixed: template user copies in ${[...copies.keys()].join(', ')}`);
    const own = await gatewayTemplate(gateway, t);
    const first = {
      users: await claimIds(gateway, 'users', count),
      namespaces: await claimIds(gateway, 'namespaces', count),
      ...Object.fromEntries(
        await Promise.all(
          GATEWAY_SEQUENCES.map(async (key) => [
            key,
            await claimIds(gateway, key, count * own.get(key)!.length),
          ]),
        ),
      ),
    } as Record<string, number>;
    const writers = Object.fromEntries(
      Object.entries(connections).map(([service, c]) => [service, new BatchWriter(c)]),
    );
    const loaded: LoadedUsers = { ids: [], tokens: [] };
    await withProgress(
      log,
      'users with tokens',
      () => loaded.ids.length,
      count,
      async () => {
        for (let k = 0; k < count; k++) {
          const user: NewUser = {
            id: first.users! + k,
            namespaceId: first.namespaces! + k,
            token: `glpat-${randomBytes(15).toString('base64url')}`,
          };
          const [username, name] = [`mixu${k}-${options.suffix}`, `Mixed User ${k}`];
          const swap = (s: string): string => s.replaceAll(t.username, username).replaceAll(t.name, name);
          const copy = (doc: Doc, set: Doc): Doc => ({
            ...(swapStrings(withoutOutbox(doc), swap) as Doc),
            ...set,
          });
          for (const [collection, docs] of own) {
            for (const [i, doc] of docs.entries()) {
              const sequenced = GATEWAY_SEQUENCES.includes(collection)
                ? { _id: first[collection]! + k * docs.length + i }
                : {};
              const set = { ...GATEWAY_KEYS[collection]!(user), ...sequenced };
              await writers.gateway!.add(collection, copy(doc, set));
            }
          }
          for (const [key, docs] of copies) {
            const [service, collection] = key.split('.') as [string, string];
            for (const doc of docs) {
              await writers[service]!.add(collection, copy(doc, SERVICE_KEYS[collection]!(doc, user)));
            }
          }
          loaded.ids.push(user.id);
          loaded.tokens.push(user.token);
        }
        for (const writer of Object.values(writers)) await writer.flush();
      },
    );
    return loaded;
  } finally {
    for (const c of Object.values(connections)) await c.close();
  }
}
