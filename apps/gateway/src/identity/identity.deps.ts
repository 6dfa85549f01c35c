import type { Counters, Outbox } from '@gl/service-kit';
import type { IdentityStores } from './identity.stores';

/** What every identity service function needs. */
export interface IdentityDeps {
  stores: IdentityStores;
  counters: Counters;
  outbox: Outbox;
  externalUrl: string;
}

export const PRODUCER = 'gateway';
