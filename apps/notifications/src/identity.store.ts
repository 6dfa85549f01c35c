import type { EventEnvelope } from '@gl/contracts';
import { markDestroyed, projectIdentity } from '@gl/service-kit';
import type { NamespaceDoc, NotificationsModels } from './models';

export type NamespaceKind = 'group' | 'project';

const namespaceId = (kind: NamespaceKind, sourceId: number): string => `${kind}:${sourceId}`;

/**
 * The notifications service's projection of identity: users' addresses and the ancestry of groups and
 * projects, written by identity events through the service kit's out-of-order guard.
 */
export function createIdentityStore(models: NotificationsModels) {
  /** A user's primary and secondary addresses as the last user event said, or null before any. */
  async function addressesOf(userId: number): Promise<string[] | null> {
    const user = await models.users.findById(userId).lean().exec();
    return user ? [user.email, ...user.emails] : null;
  }

  function recordUser(
    userId: number,
    email: string,
    emails: string[],
    event: EventEnvelope,
  ): Promise<boolean> {
    return projectIdentity(models.users, userId, event, { email, emails });
  }

  /** Records ancestry unless the namespace was destroyed (a late created/updated must not resurrect it). */
  function recordNamespace(
    kind: NamespaceKind,
    sourceId: number,
    ancestorGroupIds: number[],
    event: EventEnvelope,
  ): Promise<boolean> {
    return projectIdentity(
      models.namespaces,
      namespaceId(kind, sourceId),
      event,
      { kind, sourceId, ancestorGroupIds },
      { unlessDestroyed: true },
    );
  }

  async function markNamespaceDestroyed(
    kind: NamespaceKind,
    sourceId: number,
    ancestorGroupIds: number[],
  ): Promise<void> {
    await markDestroyed(models.namespaces, namespaceId(kind, sourceId), { kind, sourceId, ancestorGroupIds });
  }

  /** Subgroups and projects anywhere below a group. */
  function namespacesBelow(groupId: number): Promise<NamespaceDoc[]> {
    return models.namespaces.find({ ancestorGroupIds: groupId }).lean<NamespaceDoc[]>().exec();
  }

  /** A project's groups, outermost first, or null when no event has named the project. */
  async function projectAncestors(projectId: number): Promise<number[] | null> {
    const project = await models.namespaces.findById(namespaceId('project', projectId)).lean().exec();
    return project?.ancestorGroupIds ?? null;
  }

  return {
    addressesOf,
    recordUser,
    recordNamespace,
    markNamespaceDestroyed,
    namespacesBelow,
    projectAncestors,
  };
}

export type IdentityStore = ReturnType<typeof createIdentityStore>;
