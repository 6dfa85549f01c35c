import { REPORTER_IF_PRIVATE, VISIBLE } from '../sight';
import type { Rules } from './types';

const source = 'lib/api/subscriptions.rb (`before { authenticate! }`)';

/** Subscriptions of the caller to issues, merge requests and group labels. Source: lib/api/subscriptions.rb. */
export const SUBSCRIPTION_RULES: Rules = {
  subscribeProjectIssue: {
    target: 'project',
    see: VISIBLE,
    source: `${source}: find_project_issue (IssuesFinder) → 404`,
  },
  unsubscribeProjectIssue: {
    target: 'project',
    see: VISIBLE,
    source: `${source}: find_project_issue (IssuesFinder) → 404`,
  },
  subscribeProjectMergeRequest: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    role: 'developer',
    source: `${source}: find_merge_request_with_access(id, :update_merge_request) → 403`,
  },
  unsubscribeProjectMergeRequest: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    role: 'developer',
    source: `${source}: find_merge_request_with_access(id, :update_merge_request) → 403`,
  },
  subscribeGroupLabel: {
    target: 'group',
    see: VISIBLE,
    source: `${source}: user_group (find_group! → 404), find_label → 404`,
  },
  unsubscribeGroupLabel: {
    target: 'group',
    see: VISIBLE,
    source: `${source}: user_group (find_group! → 404), find_label → 404`,
  },
};
