/**
 * The `data` of identity events as the gateway publishes them (libs/contracts identity.events.ts), with the
 * names tests use everywhere: user `user<id>`, group `g<id>`, project `g/p<id>`. Wrap them in an envelope
 * with `gatewayEvent` or a service's own envelope builder.
 */

export interface TestUser {
  id: number;
  username?: string;
  name?: string;
  email?: string;
  emails?: string[];
  isAdmin?: boolean;
}

export function userEventFields(user: TestUser) {
  const username = user.username ?? `user${user.id}`;
  return {
    userId: user.id,
    username,
    name: user.name ?? `User ${user.id}`,
    state: 'active',
    email: user.email ?? `${username}@x.test`,
    emails: user.emails ?? [],
    isAdmin: user.isAdmin ?? false,
  };
}

export interface TestNamespaceOptions {
  visibility?: string;
  /** Groups above, outermost first. */
  ancestorGroupIds?: number[];
  /** The gateway's identity revision (visibility changes and removals). */
  revision?: number;
  /** Default `g<id>` / `g/p<id>`; name and path are its last segment. */
  fullPath?: string;
}

const named = (fullPath: string) => {
  const last = fullPath.split('/').pop()!;
  return { name: last, path: last, fullPath };
};

const revisionField = (revision: number | undefined) => (revision === undefined ? {} : { revision });

export function groupEventFields(groupId: number, options: TestNamespaceOptions = {}) {
  const ancestorGroupIds = options.ancestorGroupIds ?? [];
  return {
    groupId,
    ...named(options.fullPath ?? `g${groupId}`),
    parentId: ancestorGroupIds.at(-1) ?? null,
    ancestorGroupIds,
    visibility: options.visibility ?? 'private',
    ...revisionField(options.revision),
  };
}

export function projectEventFields(projectId: number, options: TestNamespaceOptions = {}) {
  const ancestorGroupIds = options.ancestorGroupIds ?? [];
  return {
    projectId,
    ...named(options.fullPath ?? `g/p${projectId}`),
    namespaceId: ancestorGroupIds.at(-1) ?? 1,
    ancestorGroupIds,
    visibility: options.visibility ?? 'private',
    ...revisionField(options.revision),
  };
}
