import { createHash } from 'node:crypto';
import type { InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import { connectMongo, createCounters, signContext } from '@gl/service-kit';

export interface BenchGroup {
  id: number;
  path: string;
  name: string;
  /** 'api' when POST /groups created it, 'database' when it was inserted directly. */
  createdVia: 'api' | 'database';
}

/** The gateway's NamespaceDoc, RouteDoc and MemberDoc (tools may not import apps, so they are restated here). */
interface NamespaceRow {
  _id: number;
  kind: 'group' | 'user';
  name: string;
  path: string;
  fullPath: string;
  fullPathLower: string;
  fullName: string;
  parentId: number | null;
  ancestorIds: number[];
  visibility: 'private' | 'internal' | 'public';
  description: string;
  ownerId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

interface RouteRow {
  _id: string;
  sourceType: 'namespace' | 'project';
  sourceId: number;
}

interface MemberRow {
  _id: number;
  sourceType: 'group' | 'project';
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
}

const GROUP = { name: 'Bench Group', path: 'bench-group' };
const OWNER = 50;

/**
 * Creates the benchmark group through the gateway. Until the gateway serves POST /api/v4/groups (an
 * unrouted path answers 404/405), the group is written straight into the gateway's identity database
 * instead, shaped like the gateway's NamespaceDoc (apps/gateway/src/identity/identity.models.ts) with its
 * route entry and an owner membership for root, and its id taken from the gateway's own `namespaces`
 * counter; the gateway then resolves it exactly as one created through the API.
 */
export async function createGroup(
  gatewayUrl: string,
  rootToken: string,
  mongoUrl: string,
  gatewayDb: string,
): Promise<BenchGroup> {
  const response = await fetch(`${gatewayUrl}/api/v4/groups`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
    body: JSON.stringify(GROUP),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status === 201) {
    const body = JSON.parse(text) as { id: number };
    return { ...GROUP, id: body.id, createdVia: 'api' };
  }
  if (response.status !== 404 && response.status !== 405) {
    throw new Error(`POST /api/v4/groups answered ${response.status}: ${text.slice(0, 300)}`);
  }
  const connection = await connectMongo(mongoUrl, gatewayDb);
  try {
    const counters = createCounters(connection);
    const id = await counters.next('namespaces');
    const now = new Date();
    const fullPathLower = GROUP.path.toLowerCase();
    await connection.collection<NamespaceRow>('namespaces').insertOne({
      _id: id,
      kind: 'group',
      name: GROUP.name,
      path: GROUP.path,
      fullPath: GROUP.path,
      fullPathLower,
      fullName: GROUP.name,
      parentId: null,
      ancestorIds: [],
      visibility: 'private',
      description: '',
      ownerId: null,
      createdAt: now,
      updatedAt: now,
    });
    await connection.collection<RouteRow>('routes').insertOne({
      _id: fullPathLower,
      sourceType: 'namespace',
      sourceId: id,
    });
    await connection.collection<MemberRow>('members').insertOne({
      _id: await counters.next('members'),
      sourceType: 'group',
      sourceId: id,
      userId: 1,
      accessLevel: OWNER,
      expiresAt: null,
      createdBy: 1,
      createdAt: now,
      updatedAt: now,
    });
    return { ...GROUP, id, createdVia: 'database' };
  } finally {
    await connection.close();
  }
}

/**
 * The context the gateway would sign for root on this group (see the gateway's toPrincipal and
 * resolveGroup), valid long enough for the whole run so one header serves every request of target (b).
 */
export function signedContextFor(
  secret: string,
  externalUrl: string,
  group: BenchGroup,
  validForMs: number,
): string {
  const email = 'admin@example.com';
  const principal: Principal = {
    id: 1,
    username: 'root',
    name: 'Administrator',
    state: 'active',
    avatar_url: `https://www.gravatar.com/avatar/${createHash('sha256').update(email).digest('hex')}?s=80&d=identicon`,
    web_url: `${externalUrl}/root`,
    email,
    isAdmin: true,
    scopes: ['api', 'read_api', 'read_user', 'sudo'],
  };
  const namespace: NamespaceContext = {
    kind: 'group',
    id: group.id,
    name: group.name,
    path: group.path,
    fullPath: group.path,
    fullName: group.name,
    visibility: 'private',
    webUrl: `${externalUrl}/groups/${group.path}`,
    ancestorGroupIds: [],
    accessLevel: OWNER,
  };
  const context: InternalContext = {
    v: 1,
    requestId: 'bench',
    exp: Date.now() + validForMs,
    tier: 'ultimate',
    externalUrl,
    principal,
    namespace,
  };
  return signContext(secret, context);
}
