import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import {
  boardEntity,
  boardListEntity,
  createBoardBody,
  createListBody,
  milestoneEntity,
  milestoneShortEntity,
  moveListBody,
  specialBoardFilterEntity,
  updateBoardBody,
} from './entities';
import { projectMilestoneEntity } from './project-milestone-endpoints';

/**
 * Entities::BasicProjectDetails as a project board shows its project (lib/api/entities/board.rb
 * `expose :project`): the fields the request's signed context names.
 */
export const boardProjectEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  web_url: z.string(),
});
export type BoardProjectEntity = z.infer<typeof boardProjectEntity>;

const boardMilestone = z.union([projectMilestoneEntity, milestoneEntity]);

/** Entities::List of a project board: a milestone list shows a project milestone or one of its groups'. */
export const projectBoardListEntity = boardListEntity.extend({ milestone: boardMilestone.optional() });
export type ProjectBoardListEntity = z.infer<typeof projectBoardListEntity>;

/** Entities::Board of a project board: `project` set, `group` null. */
export const projectBoardEntity = boardEntity.extend({
  project: boardProjectEntity,
  group: z.null(),
  lists: z.array(projectBoardListEntity),
  milestone: z
    .union([projectMilestoneEntity, milestoneEntity, milestoneShortEntity, specialBoardFilterEntity])
    .nullable(),
});
export type ProjectBoardEntity = z.infer<typeof projectBoardEntity>;

const boards = ['boards'];
const board = '/projects/{id}/boards/{board_id}';
const projectBoardIdParams = createListBody.pick({ board_id: true });
const projectListIdParams = moveListBody.pick({ board_id: true, list_id: true });

/**
 * Project issue boards (lib/api/boards.rb with lib/api/boards_responses.rb, `before { authenticate! }`):
 * read with read_issue_board (the project readable, issues available: Guest on a private project), written
 * with admin_issue_board / admin_issue_board_list (Reporter and up). Multiple boards are available to
 * projects on every tier (Project#multiple_issue_boards_available?); scoping and the lists other than
 * label lists are higher-tier features, as on group boards.
 */
export const PROJECT_BOARD_ENDPOINTS = defineEndpoints('boards', [
  {
    method: 'GET',
    path: '/projects/{id}/boards',
    operationId: 'listProjectBoards',
    summary: 'Issue boards of a project',
    tags: boards,
    auth: 'token',
    params: paginationQuery,
    response: { status: 200, description: 'Boards', schema: z.array(projectBoardEntity), paginated: true },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: board,
    operationId: 'getProjectBoard',
    summary: 'One project issue board',
    tags: boards,
    auth: 'token',
    params: projectBoardIdParams,
    response: { status: 200, description: 'Board', schema: projectBoardEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'POST',
    path: '/projects/{id}/boards',
    operationId: 'createProjectBoard',
    summary: 'Create a project issue board (Reporter and up)',
    tags: boards,
    auth: 'token',
    params: createBoardBody,
    response: { status: 201, description: 'Board', schema: projectBoardEntity },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'PUT',
    path: board,
    operationId: 'updateProjectBoard',
    summary: 'Update a project issue board (scoping on higher tiers)',
    tags: boards,
    auth: 'token',
    params: updateBoardBody,
    response: { status: 200, description: 'Board', schema: projectBoardEntity },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'DELETE',
    path: board,
    operationId: 'deleteProjectBoard',
    summary: 'Delete a project issue board (Reporter and up)',
    tags: boards,
    auth: 'token',
    params: projectBoardIdParams,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: `${board}/lists`,
    operationId: 'listProjectBoardLists',
    summary: 'Lists of a project board, without Open and Closed',
    tags: boards,
    auth: 'token',
    params: projectBoardIdParams.extend(paginationQuery.shape),
    response: {
      status: 200,
      description: 'Lists',
      schema: z.array(projectBoardListEntity),
      paginated: true,
    },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: `${board}/lists/{list_id}`,
    operationId: 'getProjectBoardList',
    summary: 'One project board list',
    tags: boards,
    auth: 'token',
    params: projectListIdParams,
    response: { status: 200, description: 'List', schema: projectBoardListEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'POST',
    path: `${board}/lists`,
    operationId: 'createProjectBoardList',
    summary:
      'Create a project board list for a label of the project or its groups (or, on higher tiers, a milestone, an iteration or an assignee)',
    tags: boards,
    auth: 'token',
    params: createListBody,
    response: { status: 201, description: 'List', schema: projectBoardListEntity },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'PUT',
    path: `${board}/lists/{list_id}`,
    operationId: 'moveProjectBoardList',
    summary: 'Move a project board list to another position',
    tags: boards,
    auth: 'token',
    params: moveListBody,
    response: { status: 200, description: 'List', schema: projectBoardListEntity },
    errors: [400, 401, 403, 404],
  },
  {
    method: 'DELETE',
    path: `${board}/lists/{list_id}`,
    operationId: 'deleteProjectBoardList',
    summary: 'Delete a project board list (Reporter and up)',
    tags: boards,
    auth: 'token',
    params: projectListIdParams,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
]);
