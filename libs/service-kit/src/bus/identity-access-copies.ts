import type { Model } from 'mongoose';
import type { z } from 'zod';
import type { groupEventData, projectEventData } from '@gl/contracts';
import { forgetMembership, markDestroyed, projectIdentity, recordMembership } from '../mongo/projection';
import type { ProjectionRevisions } from '../mongo/projection-revisions';
import type { Subscription } from './consumer';
import { applyIdentityEvent, identitySubjects, type IdentityHandlers } from './identity-projection';

type ProjectData = z.infer<typeof projectEventData>;
type GroupData = z.infer<typeof groupEventData>;

/** The three copies a service authorizes from on its own (lists beyond one project, the registry). */
export interface AccessCopyModels {
  projects: Model<never>;
  groups: Model<never>;
  members: Model<never>;
}

/** What a service adds to the common copy: its own fields and follow-up writes. */
export interface AccessCopyOptions {
  /** Fields of its own on a project copy, beside the common ones. */
  projectFields?: (data: ProjectData) => Record<string, unknown>;
  /** After a project event was handled (e.g. keeping stored paths in step with a rename). */
  afterProject?: (data: ProjectData) => Promise<void>;
  /** What a destroyed project's copy keeps besides the mark (e.g. freeing a unique path). */
  destroyedProjectFields?: (data: ProjectData) => Record<string, unknown>;
}

/**
 * The projects, groups and memberships copy every authorizing service keeps, one definition: a project
 * keeps its path, visibility, ancestry (`rootGroupId`: the outermost group, null in a user namespace) and
 * feature levels (`features`, null from builds that did not send them: all enabled); a group its path,
 * visibility, ancestry and root. Each write is guarded by `projectIdentity` (a newer or destroyed copy
 * wins), so a redelivered or late event changes nothing.
 */
export function accessCopyHandlers(
  models: AccessCopyModels,
  options: AccessCopyOptions = {},
): IdentityHandlers {
  return {
    project: async (data, event) => {
      await projectIdentity(
        models.projects,
        data.projectId,
        event,
        {
          fullPath: data.fullPath,
          visibility: data.visibility,
          ancestorGroupIds: data.ancestorGroupIds,
          rootGroupId: data.ancestorGroupIds[0] ?? null,
          features: data.features ?? null,
          ...options.projectFields?.(data),
        },
        { unlessDestroyed: true },
      );
      await options.afterProject?.(data);
    },
    projectDestroyed: (data) =>
      markDestroyed(models.projects, data.projectId, options.destroyedProjectFields?.(data)),
    group: (data: GroupData, event) =>
      projectIdentity(
        models.groups,
        data.groupId,
        event,
        {
          fullPath: data.fullPath,
          visibility: data.visibility,
          ancestorGroupIds: data.ancestorGroupIds,
          rootGroupId: data.ancestorGroupIds[0] ?? data.groupId,
        },
        { unlessDestroyed: true },
      ),
    groupDestroyed: (data) => markDestroyed(models.groups, data.groupId),
    member: (data, event) => recordMembership(models.members, data, event),
    memberGone: (data) => forgetMembership(models.members, data),
  };
}

/**
 * A durable subscription applying `handlers`, then telling `revisions` (when the service waits for
 * identity revisions before access decisions) that the event's revision is applied.
 */
export function identitySubscription(
  durable: string,
  handlers: IdentityHandlers,
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): Subscription {
  return {
    durable,
    filterSubjects: identitySubjects(handlers),
    async handle(event) {
      await applyIdentityEvent(handlers, event);
      await revisions?.applied(event);
    },
  };
}

/**
 * The identity subscription of a service that keeps the common access copy (accessCopyHandlers) with its
 * own additions; `models` holds at least the copy's collections (with the service's own document types).
 */
export function accessCopySubscription(
  durable: string,
  models: { [K in keyof AccessCopyModels]: unknown },
  options: AccessCopyOptions,
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): Subscription {
  return identitySubscription(durable, accessCopyHandlers(models as AccessCopyModels, options), revisions);
}
