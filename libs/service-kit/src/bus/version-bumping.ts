import { UNCHANGED, type Subscription } from './consumer';

/**
 * The subscription with `bump` run after each event or batch its handler applied, before it is
 * acknowledged: what a consumer writes changes answers as an API write does (resource-versions.ts). A
 * failed bump fails the delivery, which comes again (handlers are idempotent).
 */
export function bumpingAfterWrites(subscription: Subscription, bump: () => Promise<void>): Subscription {
  const { handle, handleBatch } = subscription;
  return {
    ...subscription,
    handle: async (event, meta) => {
      const result = await handle(event, meta);
      if (result !== UNCHANGED) await bump();
      return result;
    },
    ...(handleBatch
      ? {
          handleBatch: async (events, meta) => {
            const outcome = await handleBatch(events, meta);
            if (!outcome?.unchanged) await bump();
            return outcome;
          },
        }
      : {}),
  };
}
