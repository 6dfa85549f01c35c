import { byOperationId } from '../endpoint';
import { NOTEABLE_ENDPOINTS } from './noteable-endpoints';
import { THREAD_ENDPOINTS } from './thread-endpoints';
import { LIST_ENDPOINTS } from './list-endpoints';
import { BOARD_COLUMN_ENDPOINTS } from './board-column-endpoints';
import { PERSONAL_SNIPPET_ENDPOINTS } from './snippet-endpoints';
import { AWARD_EMOJI_ENDPOINTS } from './award-emoji-endpoints';
import { ISSUE_LINK_ENDPOINTS } from './issue-link-endpoints';
import { RESOURCE_EVENT_ENDPOINTS } from './resource-event-endpoints';

export const DISCUSSIONS_ENDPOINTS = [
  ...NOTEABLE_ENDPOINTS,
  ...LIST_ENDPOINTS,
  ...THREAD_ENDPOINTS,
  ...BOARD_COLUMN_ENDPOINTS,
  ...PERSONAL_SNIPPET_ENDPOINTS,
  ...AWARD_EMOJI_ENDPOINTS,
  ...ISSUE_LINK_ENDPOINTS,
  ...RESOURCE_EVENT_ENDPOINTS,
];

/** The catalogue by operation id, for handler registration: `DISCUSSIONS_API.<operationId>`. */
export const DISCUSSIONS_API = byOperationId(DISCUSSIONS_ENDPOINTS);
