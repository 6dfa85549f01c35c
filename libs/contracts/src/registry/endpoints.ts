import { z } from 'zod';
import { byOperationId, defineEndpoints } from '../endpoint';
import {
  bulkDeleteDryRunEntity,
  registryRepositoryEntity,
  registryTagDetailEntity,
  registryTagEntity,
} from './entities';
import {
  bulkDeleteTagsParams,
  getRegistryRepositoryQuery,
  listRegistryRepositoriesQuery,
  listRegistryTagsQuery,
  repositoryIdParams,
  tagParams,
} from './params';

const tags = ['container_registry'];
const repo = '/projects/{id}/registry/repositories/{repository_id}';

export const REGISTRY_ENDPOINTS = defineEndpoints('registry', [
  {
    method: 'GET',
    path: '/projects/{id}/registry/repositories',
    operationId: 'listProjectRegistryRepositories',
    summary: 'Container repositories of a project',
    tags,
    auth: 'optional-token',
    params: listRegistryRepositoriesQuery,
    response: {
      status: 200,
      description: 'Repositories',
      schema: z.array(registryRepositoryEntity),
      paginated: true,
    },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: '/groups/{id}/registry/repositories',
    operationId: 'listGroupRegistryRepositories',
    summary: 'Container repositories of the projects of a group and its subgroups',
    tags,
    // lib/api/group_container_repositories.rb has no `authenticate!`: anonymous callers see a public
    // group's list (its public projects' repositories).
    auth: 'optional-token',
    params: listRegistryRepositoriesQuery,
    response: {
      status: 200,
      description: 'Repositories',
      schema: z.array(registryRepositoryEntity),
      paginated: true,
    },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: '/registry/repositories/{id}',
    operationId: 'getRegistryRepository',
    summary: 'One container repository',
    tags,
    auth: 'token',
    params: getRegistryRepositoryQuery,
    response: { status: 200, description: 'Repository', schema: registryRepositoryEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'DELETE',
    path: repo,
    // lib/api/project_container_repositories.rb runs `authorize_read_container_images!` in `before`, so an
    // anonymous delete is a 404 on a private project and a 403 on a public one (lookupFirst below).
    operationId: 'deleteRegistryRepository',
    summary: 'Schedules the deletion of a repository and its tags',
    tags,
    auth: 'token',
    lookupFirst: true,
    params: repositoryIdParams,
    response: { status: 202, description: 'Scheduled', schema: z.literal(202) },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: `${repo}/tags`,
    operationId: 'listRegistryRepositoryTags',
    summary: 'Tags of a repository, by name',
    tags,
    auth: 'optional-token',
    params: listRegistryTagsQuery,
    response: { status: 200, description: 'Tags', schema: z.array(registryTagEntity), paginated: true },
    errors: [401, 403, 404],
  },
  {
    method: 'DELETE',
    path: `${repo}/tags`,
    operationId: 'bulkDeleteRegistryRepositoryTags',
    summary: 'Schedules a bulk deletion of tags by name, age and count',
    tags,
    auth: 'token',
    lookupFirst: true,
    params: bulkDeleteTagsParams,
    response: { status: 202, description: 'Scheduled', schema: z.literal(202) },
    otherResponses: [
      {
        status: 200,
        description:
          'dry_run=true (not in GitLab): the tags the call would delete now, in its order, nothing scheduled',
        schema: bulkDeleteDryRunEntity,
      },
    ],
    errors: [400, 401, 403, 404],
  },
  {
    method: 'GET',
    path: `${repo}/tags/{tag_name}`,
    operationId: 'getRegistryRepositoryTag',
    summary: 'Details of one tag',
    tags,
    auth: 'optional-token',
    params: tagParams,
    response: { status: 200, description: 'Tag', schema: registryTagDetailEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'DELETE',
    path: `${repo}/tags/{tag_name}`,
    operationId: 'deleteRegistryRepositoryTag',
    summary: 'Deletes one tag (blobs stay)',
    tags,
    auth: 'token',
    lookupFirst: true,
    params: tagParams,
    response: { status: 200, description: 'Deleted', schema: z.literal(200) },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'POST',
    path: '/container_registry_event/events',
    operationId: 'receiveRegistryEvents',
    summary: 'Docker distribution registry notifications',
    tags,
    auth: 'registry-secret',
    response: { status: 200, description: 'Received' },
    errors: [401],
  },
]);

/** The catalogue by operation id, for handler registration: `REGISTRY_API.<operationId>`. */
export const REGISTRY_API = byOperationId(REGISTRY_ENDPOINTS);
