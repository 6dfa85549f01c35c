import { unique } from '../../e2e.helpers';
import { must } from '../http';
import type { CellContext, ParamValues } from '../rules';

/**
 * Path parameters for the operations that address the caller's own snippets, e-mails and tokens. Their rules
 * (`special: 'caller-owned'`) give none, since the authorization matrix checks them with cases of its own;
 * without them the fuzzer would address ids nobody holds (its read-back then reads a 404 twice and cannot
 * fail) or, for a token id, someone else's token. A destructive case gets one of its own, as fresh.ts does
 * for the matrix; a case that replaces the id itself addresses (and reads back) one kept per world.
 */
export interface Owned {
  params: ParamValues;
  /** Something was made for the case. */
  wrote: boolean;
}

type Maker = (c: CellContext) => Promise<ParamValues>;

const snippet: Maker = async (c) => {
  const made = await must<{ id: number }>('POST', '/snippets', {
    token: c.world.people.owner.token,
    body: { title: unique('fz-own-'), file_name: 'own.txt', content: 'x', visibility: 'private' },
  });
  return { id: made.id };
};

const ownEmail: Maker = async (c) => {
  const made = await must<{ id: number }>('POST', '/user/emails', {
    token: c.world.people.owner.token,
    body: { email: `${unique('fzown')}@example.com` },
  });
  return { email_id: made.id };
};

const bystanderEmail: Maker = async (c) => {
  const made = await must<{ id: number }>('POST', `/users/${c.world.bystander.id}/emails`, {
    token: c.world.root,
    body: { email: `${unique('fzby')}@example.com` },
  });
  return { id: c.world.bystander.id, email_id: made.id };
};

const ownToken: Maker = async (c) => {
  const made = await must<{ id: number }>(
    'POST',
    `/users/${c.world.people.owner.id}/personal_access_tokens`,
    {
      token: c.world.root,
      body: { name: unique('fz-own'), scopes: ['api'] },
    },
  );
  return { id: made.id };
};

/** By operation: what it addresses, and whether a case that keeps the real id may destroy it. */
const OWNED: Record<string, { make: Maker; destroys: boolean }> = {
  updateSnippet: { make: snippet, destroys: false },
  deleteSnippet: { make: snippet, destroys: true },
  deleteCurrentUserEmail: { make: ownEmail, destroys: true },
  deleteUserEmail: { make: bystanderEmail, destroys: true },
  revokePersonalAccessToken: { make: ownToken, destroys: true },
};

/** The one kept per world and operation, for the cases that replace its id (so nothing may destroy it). */
const kept = new Map<string, Promise<ParamValues>>();

export async function ownedParams(
  operationId: string,
  c: CellContext,
  replacesId: boolean,
): Promise<Owned | null> {
  const owned = OWNED[operationId];
  if (!owned) return null;
  if (owned.destroys && !replacesId) return { params: await owned.make(c), wrote: true };
  const key = `${operationId}:${c.world.people.owner.id}`;
  const first = !kept.has(key);
  if (first) kept.set(key, owned.make(c));
  return { params: await kept.get(key)!, wrote: first };
}
