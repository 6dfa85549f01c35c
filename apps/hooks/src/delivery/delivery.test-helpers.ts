import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@gl/contracts';
import type { HookDoc, HooksModels } from '../hooks.models';

/** A hook as the API would store it, with `fields` over the defaults; inserted and returned. */
export async function insertHook(
  hookModels: HooksModels,
  fields: Partial<HookDoc> & Pick<HookDoc, '_id' | 'parentKind' | 'parentId' | 'url'>,
): Promise<HookDoc> {
  const now = new Date();
  const doc: HookDoc = {
    ancestorGroupIds: [],
    rootGroupId: null,
    ancestryAt: now.toISOString(),
    name: null,
    description: null,
    token: null,
    enableSslVerification: true,
    events: {},
    pushEventsBranchFilter: null,
    branchFilterStrategy: 'wildcard',
    customWebhookTemplate: null,
    urlVariables: [],
    customHeaders: [],
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await hookModels.hooks.create(doc);
  return doc;
}

/** A discussions domain event of `type` in `projectId`, by user 2. */
export function discussionsEvent(
  type: string,
  projectId: number,
  data: Record<string, unknown>,
): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'discussions',
    correlationId: null,
    actor: { id: 2, username: 'user2', name: 'User 2' },
    projectId,
    groupId: null,
    data,
  };
}
