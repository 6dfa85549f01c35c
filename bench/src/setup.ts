import { createHash } from 'node:crypto';
import type { InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import { signContext } from '@gl/service-kit';

export interface BenchGroup {
  id: number;
  path: string;
  name: string;
}

const GROUP = { name: 'Bench Group', path: 'bench-group' };
const OWNER = 50;

/** Creates the benchmark group through the gateway, as any client would (root becomes its owner). */
export async function createGroup(gatewayUrl: string, rootToken: string): Promise<BenchGroup> {
  const response = await fetch(`${gatewayUrl}/api/v4/groups`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': rootToken, 'Content-Type': 'application/json' },
    body: JSON.stringify(GROUP),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`POST /api/v4/groups answered ${response.status}: ${text.slice(0, 300)}`);
  return { ...GROUP, id: (JSON.parse(text) as { id: number }).id };
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
