import { z } from 'zod';
import { visibility } from '../primitives';
import { featureAccessLevel } from '../identity/project-features';

/** Payloads (`data`) of identity events, published by the gateway's identity catalogue. */
export const userEventData = z.object({
  userId: z.number().int(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  email: z.string(),
  emails: z.array(z.string()),
  isAdmin: z.boolean(),
});

/**
 * `gl.identity.user.destroyed` (DELETE /users/:id, Users::DestroyService): without `hardDelete` GitLab
 * moves the user's issues, merge requests, notes and other records to the Ghost User; with it they are
 * deleted. Memberships and personal projects are removed by their own events first.
 */
export const userDestroyedEventData = z.object({
  userId: z.number().int(),
  username: z.string(),
  hardDelete: z.boolean(),
});

export const groupEventData = z.object({
  groupId: z.number().int(),
  name: z.string(),
  path: z.string(),
  fullPath: z.string(),
  parentId: z.number().int().nullable(),
  ancestorGroupIds: z.array(z.number().int()),
  visibility,
  /**
   * The gateway's identity revision of this change (one counter): on every membership change and on a
   * project or group visibility change or removal. Services that authorize from their own projection
   * record it (see `identityRevision` in the internal context).
   */
  revision: z.number().int().optional(),
});

export const projectEventData = z.object({
  projectId: z.number().int(),
  name: z.string(),
  path: z.string(),
  fullPath: z.string(),
  namespaceId: z.number().int(),
  /** Groups containing the project, outermost first; empty for a project in a user namespace. */
  ancestorGroupIds: z.array(z.number().int()),
  visibility,
  /** See groupEventData. */
  revision: z.number().int().optional(),
  /**
   * Every feature's access level (app/models/project_feature.rb: `disabled`, `private` for members,
   * `enabled`, `public` for pages), so services answer a disabled feature as GitLab does (issues, merge
   * requests, snippets, container registry…). Absent in events of older builds: all `enabled`.
   */
  features: z.record(z.string(), featureAccessLevel).optional(),
});

export const memberEventData = z.object({
  sourceType: z.enum(['group', 'project']),
  sourceId: z.number().int(),
  userId: z.number().int(),
  accessLevel: z.number().int(),
  expiresAt: z.string().nullable(),
  /** See groupEventData. */
  revision: z.number().int().optional(),
});
