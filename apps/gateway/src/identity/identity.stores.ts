import type { Outbox } from '@gl/service-kit';
import type { IdentityModels } from './identity.models';
import { createMembersStore } from './members.store';
import { createNamespacesStore } from './namespaces.store';
import { createProjectsStore } from './projects.store';
import { createRevisionsStore } from './revisions.store';
import { createRoutesStore } from './routes.store';
import { createStarsStore } from './stars.store';
import { createUsersStore } from './users.store';

/** Every identity collection, each behind its store; nothing else in the gateway touches the models. */
export function createIdentityStores(models: IdentityModels, outbox: Outbox) {
  return {
    /** For lookups that combine several stores' reads and are cached as one (namespaces/resolve.ts). */
    cache: models.cache,
    users: createUsersStore(models, outbox),
    namespaces: createNamespacesStore(models, outbox),
    routes: createRoutesStore(models.routes),
    projects: createProjectsStore(models, outbox),
    members: createMembersStore(models, outbox),
    stars: createStarsStore(models.stars),
    revisions: createRevisionsStore(models),
  };
}
export type IdentityStores = ReturnType<typeof createIdentityStores>;
