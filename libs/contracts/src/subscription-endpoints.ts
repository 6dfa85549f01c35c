import type { z } from 'zod';

/** lib/api/subscriptions.rb: nothing changed is `not_modified!`, an empty 304. */
const notModified = [{ status: 304, description: 'Already (un)subscribed: nothing changed' }] as const;

/** One kind of subscribable (lib/api/subscriptions.rb `subscribable_types`) and how it is answered. */
interface Subscribable<N extends string, P extends z.ZodObject | undefined> {
  /** Ends the operation ids: `subscribe<name>`, `unsubscribe<name>`. */
  name: N;
  /** The path of one subscribable, e.g. `/projects/{id}/issues/{issue_iid}`. */
  path: string;
  /** In the summaries: "Subscribe the caller to <noun>". */
  noun: string;
  tags: string[];
  /** The entity answered, with `subscribed`, and its description. */
  entity: z.ZodType;
  entityName: string;
  params?: P;
  errors: readonly number[];
}

/**
 * The subscribe and unsubscribe routes of one subscribable kind: 201 with the entity when the choice
 * changes, an empty 304 when it does not. Each endpoint keeps its type (operation id, params schema), so
 * the handlers registered for them get typed params.
 */
export function subscriptionEndpoints<const N extends string, P extends z.ZodObject | undefined = undefined>(
  s: Subscribable<N, P>,
) {
  const common = {
    tags: s.tags,
    auth: 'token' as const,
    params: s.params as P,
    response: { status: 201, description: s.entityName, schema: s.entity },
    otherResponses: notModified,
    errors: s.errors,
  };
  return [
    {
      method: 'POST' as const,
      path: `${s.path}/subscribe`,
      operationId: `subscribe${s.name}` as const,
      summary: `Subscribe the caller to ${s.noun}`,
      ...common,
    },
    {
      method: 'POST' as const,
      path: `${s.path}/unsubscribe`,
      operationId: `unsubscribe${s.name}` as const,
      summary: `Unsubscribe the caller from ${s.noun}`,
      ...common,
    },
  ];
}
