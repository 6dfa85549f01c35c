import { ENDPOINTS } from './endpoints';

/**
 * Which endpoints take part in version-based conditional GETs (libs/service-kit/src/bus/resource-versions.ts
 * holds the keys and the rules): the reads the gateway answers with 304 from resource versions alone, and
 * the writes addressed to a project whose effects reach past it.
 */

/**
 * The polled reads (GitLab clients and boards poll them): one issue, merge request, snippet or epic with its
 * notes and discussions, issue lists and board columns, boards and their lists, labels and milestones,
 * a project's activity, alerts and registry tags. Each answer shows only what its own namespace's writes,
 * its service's consumers and the identity catalogue change, which is what its versions count. Reads that
 * show other projects' issues (issue links, related merge requests) are not here: a write there bumps
 * nothing of theirs.
 */
export const VERSIONED_READS: ReadonlySet<string> = new Set([
  'getProjectIssue',
  'getProjectMergeRequest',
  'getProjectSnippet',
  'getGroupEpic',
  'listProjectIssues',
  'listGroupIssues',
  'listIssueNotes',
  'listIssueDiscussions',
  'listMergeRequestNotes',
  'listMergeRequestDiscussions',
  'listSnippetNotes',
  'listSnippetDiscussions',
  'listEpicNotes',
  'listEpicDiscussions',
  'listGroupBoardListIssues',
  'listProjectBoardListIssues',
  'listGroupBoards',
  'getGroupBoard',
  'listGroupBoardLists',
  'listProjectBoards',
  'getProjectBoard',
  'listProjectBoardLists',
  'listGroupLabels',
  'listProjectLabels',
  'listGroupMilestones',
  'listProjectMilestones',
  'listProjectEvents',
  'listAlerts',
  'getAlert',
  'listProjectRegistryRepositories',
  'listRegistryRepositoryTags',
  'getRegistryRepositoryTag',
]);

/**
 * The services that answer versioned reads: only their writes, consumers and jobs need to bump versions
 * (a bump costs about 0.4 ms of CPU between the client and NATS); hooks and notifications answer none.
 */
export const VERSIONED_SERVICES: ReadonlySet<string> = new Set(
  ENDPOINTS.filter((endpoint) => VERSIONED_READS.has(endpoint.operationId)).map(
    (endpoint) => endpoint.service,
  ),
);

/**
 * Writes addressed to one project that change what other projects' reads show: an issue link adds a
 * system note and a link on the other issue, a promotion merges the sibling projects' labels or
 * milestones into the group's, a merge may close issues elsewhere. They bump their service's whole key.
 */
export const WRITES_REACHING_ACROSS: ReadonlySet<string> = new Set([
  'createProjectIssueLink',
  'deleteProjectIssueLink',
  'promoteProjectLabel',
  'promoteProjectMilestone',
  'mergeProjectMergeRequest',
]);
