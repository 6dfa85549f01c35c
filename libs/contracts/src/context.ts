import { z } from 'zod';
import { featureAccessLevel } from './identity/project-features';
import { tier, visibility } from './primitives';

/**
 * The internal request context the gateway signs and every service verifies. It carries what a service
 * needs to authorize without calling back to the gateway: who is calling, with which token scopes, and
 * what the caller may do on the addressed group or project.
 */
export const INTERNAL_CONTEXT_HEADER = 'x-gl-context';
export const REQUEST_ID_HEADER = 'x-request-id';

export const principal = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  /** Scopes of the token used; an impersonated (Sudo) request keeps the admin token's scopes. */
  scopes: z.array(z.string()),
});
export type Principal = z.infer<typeof principal>;

export const namespaceContext = z.object({
  kind: z.enum(['group', 'project']),
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  fullPath: z.string(),
  /** For a group: its name with ancestors ("Parent / Child"); for a project: name_with_namespace. */
  fullName: z.string(),
  visibility,
  webUrl: z.string(),
  /** Groups above the addressed namespace, nearest last (a project's own group is the last entry). */
  ancestorGroupIds: z.array(z.number().int()),
  /** The caller's membership level (0 none, 10..50), inherited from ancestor groups; admins are separate. */
  accessLevel: z.number().int(),
  /**
   * For a project: the caller's level on the groups above it, without the project's own memberships (what
   * GitLab checks for a group action started from a project, e.g. promoting a label). Absent for groups,
   * and from contexts signed before it was carried: then `accessLevel` stands for it.
   */
  groupAccessLevel: z.number().int().optional(),
  /**
   * A project's feature levels other than `enabled` (ProjectFeature), so that a service gates a feature
   * without reading its copy of the project on every request. Absent for groups, and from contexts signed
   * before it was carried: then the service reads its copy.
   */
  features: z.record(z.string(), featureAccessLevel).optional(),
});
export type NamespaceContext = z.infer<typeof namespaceContext>;

/**
 * How new the answer must be, in the gateway's identity revisions (one counter, stamped on identity
 * events): a service that authorizes from its own projection of memberships and visibility must not
 * answer before that projection has applied these, so a removal counts on the very next request.
 */
export const identityRevision = z.object({
  /** The newest change to the caller's own memberships (0 for none, or anonymous). */
  user: z.number().int(),
  /** The newest project or group visibility change or removal. */
  visibility: z.number().int(),
});
export type IdentityRevision = z.infer<typeof identityRevision>;

export const internalContext = z.object({
  v: z.literal(1),
  requestId: z.string(),
  /** Expiry, epoch milliseconds: a captured header is useless after a short while. */
  exp: z.number().int(),
  tier,
  externalUrl: z.string(),
  principal: principal.nullable(),
  namespace: namespaceContext.nullable(),
  /** Absent from contexts signed before revisions existed: then nothing is awaited. */
  identityRevision: identityRevision.optional(),
  /** The client's address as the gateway saw it, for limits per address (anonymous live streams). */
  clientAddress: z.string().max(64).optional(),
  /**
   * Signed only by the hooks service reading an issue or merge request for a webhook payload (the gateway
   * never sets it, so no API client gets it): the answer adds the columns GitLab's hook data shows and its
   * API entities do not (IssuableHookAttributes).
   */
  hookAttributes: z.literal(true).optional(),
});
export type InternalContext = z.infer<typeof internalContext>;

/**
 * What an issue or merge request read with `hookAttributes` shows beyond its API entity: columns of
 * Issue#hook_attrs and MergeRequest#hook_attrs (lib/gitlab/hook_data/issue_builder.rb SAFE_HOOK_ATTRIBUTES,
 * merge_request_builder.rb) that Entities::Issue and Entities::MergeRequest leave out.
 */
export interface IssuableHookAttributes {
  /** Who last changed a field through an update (IssuableBaseService#update's `updated_by`), or null. */
  updated_by_id: number | null;
}
