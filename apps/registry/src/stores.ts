import { createCleanupJobsStore } from './cleanup-jobs.store';
import type { RegistryModels } from './models';
import { createProjectsStore } from './projects.store';
import { createRepositoriesStore } from './repositories.store';
import { createTagsStore } from './tags.store';

/**
 * Every collection the registry keeps, each behind its store. Made once per process (app.ts): the API and
 * the notifications then share the tags store's sorted-name cache.
 */
export function createRegistryStores(models: RegistryModels) {
  return {
    repositories: createRepositoriesStore(models.repositories),
    tags: createTagsStore(models.tags, models.repositories),
    jobs: createCleanupJobsStore(models.jobs),
    projects: createProjectsStore(models.projects, models.members),
  };
}
export type RegistryStores = ReturnType<typeof createRegistryStores>;
