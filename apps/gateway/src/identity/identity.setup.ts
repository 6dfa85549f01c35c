import type { Connection } from 'mongoose';
import { createCounters, type Outbox } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { createIdentityModels, identityModelList } from './identity.models';
import { createUsersService, type UsersService } from './users.service';

/**
 * The identity catalogue on a process's connection, as main.ts and the test harness both open it: its
 * models published through the outbox and initialised (indexes), and the users service every router and
 * the root seed share.
 */
export async function openIdentity(
  runtime: { connection: Connection; outbox: Outbox },
  options: { externalUrl: string; cacheTtlMs?: number },
): Promise<IdentityDeps & { users: UsersService }> {
  const { connection, outbox } = runtime;
  const models = createIdentityModels(connection, { cacheTtlMs: options.cacheTtlMs });
  for (const model of identityModelList(models)) outbox.register(model);
  await Promise.all(identityModelList(models).map((model) => model.init()));
  const identity: IdentityDeps = {
    models,
    counters: createCounters(connection),
    outbox,
    externalUrl: options.externalUrl,
  };
  return { ...identity, users: createUsersService(identity) };
}
