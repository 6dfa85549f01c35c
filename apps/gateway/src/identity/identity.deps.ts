import type { Counters, Outbox } from '@gl/service-kit';
import type { IdentityModels } from './identity.models';

/** What every identity service function needs. */
export interface IdentityDeps {
  models: IdentityModels;
  counters: Counters;
  outbox: Outbox;
  externalUrl: string;
}

export const PRODUCER = 'gateway';
