import { unique } from '../../e2e.helpers';
import { REPORTER_IF_PRIVATE, VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Boards, labels, milestones, the container registry, notification settings and alert management.
 * Sources: lib/api/group_boards.rb + boards_responses.rb, group_labels.rb, group_milestones.rb
 * (milestone_responses.rb), project_container_repositories.rb, group_container_repositories.rb,
 * container_repositories.rb, notification_settings.rb, error_tracking/project_settings.rb,
 * app/policies/group_policy.rb, app/policies/project_policy.rb.
 */
let iterationSlot = 0;
/** Two days no other iteration created here has: 2100-01-01 onwards, three days apart. */
function iterationDays(): { start_date: string; due_date: string } {
  const start = Date.UTC(2100, 0, 1) + iterationSlot++ * 3 * 86_400_000;
  const date = (time: number) => new Date(time).toISOString().slice(0, 10);
  return { start_date: date(start), due_date: date(start + 86_400_000) };
}

export const SERVICE_RULES: Rules = {
  // Boards: `before { authenticate! }`; read_issue_board for whoever reads the group; admin_issue_board and
  // admin_issue_board_list for Reporters (GroupPolicy reporter).
  listGroupBoards: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/group_boards.rb: authorize!(:read_issue_board)',
  },
  getGroupBoard: { target: 'group', see: VISIBLE, source: 'lib/api/group_boards.rb: read_issue_board' },
  createGroupBoard: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ name: unique('board-') }),
    source: 'ee/lib/ee/api/group_boards.rb `post`: authorize!(:admin_issue_board, board_parent)',
  },
  updateGroupBoard: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ hide_closed_list: false }),
    source: 'lib/api/group_boards.rb `put`: authorize!(:admin_issue_board, board_parent)',
  },
  deleteGroupBoard: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'board',
    source: 'ee/lib/ee/api/group_boards.rb `delete`: authorize!(:admin_issue_board, board_parent)',
  },
  listGroupBoardLists: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/boards_responses.rb: read_issue_board',
  },
  getGroupBoardList: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/boards_responses.rb: read_issue_board',
  },
  createGroupBoardList: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: (c) => ({ label_id: c.r.labelId }),
    source: 'lib/api/boards_responses.rb create_list: authorize!(:admin_issue_board_list, user_group)',
  },
  moveGroupBoardList: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ position: 0 }),
    source: 'lib/api/boards_responses.rb move_list: authorize!(:admin_issue_board_list, user_group)',
  },
  deleteGroupBoardList: {
    target: 'group',
    see: VISIBLE,
    // doc/api/group_boards.md: "Only for administrators and group owners" (the project's specification
    // follows it; GroupPolicy itself grants admin_issue_board_list to Reporters).
    role: 'owner',
    fresh: 'list',
    source: 'doc/api/group_boards.md "Delete a group issue board list": administrators and group owners',
  },
  // Labels and milestones: read_label / read_milestone with the group; admin_label / admin_milestone: reporter.
  listGroupLabels: { target: 'group', see: VISIBLE, source: 'lib/api/group_labels.rb: find_group!' },
  getGroupLabel: { target: 'group', see: VISIBLE, source: 'lib/api/group_labels.rb: find_group!' },
  createGroupLabel: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ name: unique('lbl-'), color: '#123456' }),
    source: 'lib/api/group_labels.rb `post`: authorize! :admin_label, user_group',
  },
  updateGroupLabel: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ description: `matrix ${unique('d')}` }),
    source: 'lib/api/group_labels.rb `put`: authorize! :admin_label, user_group',
  },
  deleteGroupLabel: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'label',
    source: 'lib/api/group_labels.rb `delete`: authorize! :admin_label, user_group',
  },
  listGroupMilestones: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/group_milestones.rb: authorize! :read_milestone, user_group',
  },
  getGroupMilestone: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/milestone_responses.rb: read_milestone',
  },
  createGroupMilestone: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ title: unique('ms-') }),
    source: 'lib/api/group_milestones.rb `post`: authorize! :admin_milestone, user_group',
  },
  updateGroupMilestone: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ description: `matrix ${unique('d')}` }),
    source: 'lib/api/group_milestones.rb `put`: authorize! :admin_milestone, user_group',
  },
  // Iterations: read_iteration for whoever reads the group (with the feature); our creation call needs
  // create_iteration, Reporter and up (ee GroupPolicy). Each creation gets days of its own: iterations of
  // one cadence may not overlap.
  listGroupIterations: {
    target: 'group',
    see: VISIBLE,
    source: 'ee/lib/api/iterations.rb: authorize! :read_iteration, user_group (can?(:read_group))',
  },
  createGroupIteration: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => iterationDays(),
    source: 'ee/app/policies/ee/group_policy.rb: reporter & iterations_available → create_iteration',
  },
  // Container registry: read_container_image (reporter_access, or public_access — the registry is enabled
  // for everyone with access by default), destroy_container_image (developer), admin_container_image
  // (maintainer).
  listProjectRegistryRepositories: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source: 'lib/api/project_container_repositories.rb: before { authorize_read_container_images! } → 403',
  },
  listGroupRegistryRepositories: {
    target: 'group',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source:
      'lib/api/group_container_repositories.rb: authorize! :read_container_image, user_group (Reporter and ' +
      'up on a private group → 403 below); on internal and public groups ContainerRepositoriesFinder lists ' +
      "the repositories of the group's projects whose images the caller may read; no authenticate!, so " +
      "anonymous callers read a public group's list (its public projects)",
  },
  getRegistryRepository: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    denied: 403,
    params: (c) => ({ id: c.r.registry.repositoryId }),
    source:
      'lib/api/container_repositories.rb: before { authenticate! }; ContainerRepository.find(id) then ' +
      'authorize!(:read_container_image, repository) → 403. We answer 404 when the caller cannot see the ' +
      "repository's project at all, as for every invisible resource, so a repository id does not reveal " +
      'that a private project exists; a Guest of a private project gets the 403',
  },
  deleteRegistryRepository: {
    anonymousWrite: 'lookup-first',
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    role: 'maintainer',
    fresh: 'repository',
    source: 'lib/api/project_container_repositories.rb `delete`: authorize_admin_container_image!',
  },
  listRegistryRepositoryTags: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source: 'lib/api/project_container_repositories.rb: authorize_read_container_image!',
  },
  bulkDeleteRegistryRepositoryTags: {
    anonymousWrite: 'lookup-first',
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    role: 'maintainer',
    query: () => ({ name_regex_delete: 'matrix-matches-nothing' }),
    source: 'lib/api/project_container_repositories.rb `delete …/tags`: authorize_admin_container_image!',
  },
  getRegistryRepositoryTag: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source: 'lib/api/project_container_repositories.rb: authorize_read_container_image!',
  },
  deleteRegistryRepositoryTag: {
    anonymousWrite: 'lookup-first',
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    role: 'developer',
    fresh: 'tag',
    source:
      'lib/api/project_container_repositories.rb `delete …/tags/:tag_name`: authorize_destroy_container_image!',
  },
  receiveRegistryEvents: {
    target: 'none',
    special: 'registry-secret',
    source: 'lib/api/container_registry_event.rb: authenticate_registry_notification! (the shared secret)',
  },
  // Notification settings: `before { authenticate! }`; a user's own settings on any source they can read.
  getGlobalNotificationSettings: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/notification_settings.rb: authenticate!',
  },
  updateGlobalNotificationSettings: {
    target: 'none',
    see: 'signed-in',
    role: 'signed-in',
    body: () => ({ level: 'watch' }),
    source: 'lib/api/notification_settings.rb `put`: authenticate!',
  },
  getGroupNotificationSettings: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/notification_settings.rb: find_group! → 404',
  },
  updateGroupNotificationSettings: {
    target: 'group',
    see: VISIBLE,
    role: 'signed-in',
    body: () => ({ level: 'watch' }),
    source: 'lib/api/notification_settings.rb `put`: find_group!',
  },
  getProjectNotificationSettings: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/notification_settings.rb: find_project! → 404',
  },
  updateProjectNotificationSettings: {
    target: 'project',
    see: VISIBLE,
    role: 'signed-in',
    body: () => ({ level: 'watch' }),
    source: 'lib/api/notification_settings.rb `put`: find_project!',
  },
};
