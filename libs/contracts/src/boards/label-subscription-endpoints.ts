import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { labelEntity } from './entities';

const label = '/groups/{id}/labels/{label_id}';
const labelIdParams = z.object({ label_id: z.string() });
/** lib/api/subscriptions.rb: nothing changed is `not_modified!`, an empty 304. */
const notModified = [{ status: 304, description: 'Already (un)subscribed: nothing changed' }] as const;

/**
 * Subscriptions of the caller to a group label (lib/api/subscriptions.rb, `labels` of a Group: find_label
 * by id or title), answered with Entities::Label.
 */
export const LABEL_SUBSCRIPTION_ENDPOINTS = defineEndpoints('boards', [
  {
    method: 'POST',
    path: `${label}/subscribe`,
    operationId: 'subscribeGroupLabel',
    summary: 'Subscribe the caller to a group label (by id or name)',
    tags: ['labels'],
    auth: 'token',
    params: labelIdParams,
    response: { status: 201, description: 'Label', schema: labelEntity },
    otherResponses: notModified,
    errors: [401, 404],
  },
  {
    method: 'POST',
    path: `${label}/unsubscribe`,
    operationId: 'unsubscribeGroupLabel',
    summary: 'Unsubscribe the caller from a group label (by id or name)',
    tags: ['labels'],
    auth: 'token',
    params: labelIdParams,
    response: { status: 201, description: 'Label', schema: labelEntity },
    otherResponses: notModified,
    errors: [401, 404],
  },
]);
