import { AWARD_EMOJI_RULES } from './award-emoji';
import { BOARD_COLUMN_RULES } from './board-columns';
import { IDENTITY_RULES } from './identity';
import { IDENTITY_ADMIN_RULES } from './identity-admin';
import { ISSUE_EXTRA_RULES } from './issue-extras';
import { ISSUE_LIST_RULES } from './issue-lists';
import { ISSUE_LINK_RULES } from './issue-links';
import { NOTEABLE_RULES } from './noteables';
import { RESOURCE_EVENT_RULES } from './resource-events';
import { PROJECT_BOARD_RULES } from './project-boards';
import { PROJECT_LABEL_RULES } from './project-labels';
import { PROJECT_MILESTONE_RULES } from './project-milestones';
import { NOTE_RULES } from './notes';
import { OPERATIONS_RULES } from './operations';
import { SERVICE_RULES } from './services';
import { SNIPPET_RULES } from './snippets';
import { EPIC_ISSUE_RULES, EPIC_RULES } from './epics';
import { SUBSCRIPTION_RULES } from './subscriptions';
import { HOOK_RULES } from './hooks';
import type { Rules } from './types';

/**
 * GitLab's authorization rule for every operation of the OpenAPI document, by operationId. The matrix
 * fails for an operation without one, so a new endpoint comes with its rule.
 */
export const RULES: Rules = {
  ...IDENTITY_RULES,
  ...IDENTITY_ADMIN_RULES,
  ...NOTEABLE_RULES,
  ...ISSUE_EXTRA_RULES,
  ...SNIPPET_RULES,
  ...EPIC_RULES,
  ...EPIC_ISSUE_RULES,
  ...ISSUE_LIST_RULES,
  ...BOARD_COLUMN_RULES,
  ...NOTE_RULES,
  ...SERVICE_RULES,
  ...OPERATIONS_RULES,
  ...SUBSCRIPTION_RULES,
  ...PROJECT_LABEL_RULES,
  ...PROJECT_MILESTONE_RULES,
  ...PROJECT_BOARD_RULES,
  ...AWARD_EMOJI_RULES,
  ...RESOURCE_EVENT_RULES,
  ...ISSUE_LINK_RULES,
  ...HOOK_RULES,
};

export { noteableKindOf } from './notes';
export type { CellContext, FreshKind, ListCheck, ParamValues, Rule, Rules, Variant } from './types';
