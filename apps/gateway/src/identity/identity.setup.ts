import type { Connection } from 'mongoose';
import { createCounters, type Outbox } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { createIdentityModels, identityModelList, type IdentityModels } from './identity.models';
import { createIdentityStores } from './identity.stores';
import { createUsersService, type UsersService } from './users.service';

/**
 * The identity catalogue on a process's connection, as main.ts and the test harness both open it: its
 * models published through the outbox and initialised (indexes), the stores over them, and the users
 * service every router and the root seed share. The models themselves are returned for test fixtures only.
 */
export async function openIdentity(
  runtime: { connection: Connection; outbox: Outbox },
  options: { externalUrl: string; cacheTtlMs?: number },
): Promise<IdentityDeps & { models: IdentityModels; users: UsersService }> {
  const { connection, outbox } = runtime;
  const models = createIdentityModels(connection, { cacheTtlMs: options.cacheTtlMs });
  for (const model of identityModelList(models)) outbox.register(model);
  await Promise.all(identityModelList(models).map((model) => model.init()));
  const identity: IdentityDeps = {
    stores: createIdentityStores(models, outbox),
    counters: createCounters(connection),
    outbox,
    externalUrl: options.externalUrl,
  };
  return { ...identity, models, users: createUsersService(identity) };
}
