import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { subscriptionEndpoints } from '../subscription-endpoints';
import { labelEntity } from './entities';

const label = '/groups/{id}/labels/{label_id}';
const labelIdParams = z.object({ label_id: z.string() });
/**
 * Subscriptions of the caller to a group label (lib/api/subscriptions.rb, `labels` of a Group: find_label
 * by id or title), answered with Entities::Label.
 */
export const LABEL_SUBSCRIPTION_ENDPOINTS = defineEndpoints('boards', [
  ...subscriptionEndpoints({
    name: 'GroupLabel',
    path: label,
    noun: 'a group label (by id or name)',
    tags: ['labels'],
    entity: labelEntity,
    entityName: 'Label',
    params: labelIdParams,
    errors: [401, 404],
  }),
]);
