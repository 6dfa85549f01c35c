import type { IdentityModels, NamespaceDoc, ProjectDoc } from '../identity/identity.models';
import { hashToken } from '../auth/tokens';

/**
 * Direct-to-model fixtures for routing and auth tests: they set up exactly the identity state a test
 * needs without going through the identity endpoints under test elsewhere.
 */
let nextId = 1000;
const id = (): number => ++nextId;

export interface UserFixture {
  id: number;
  username: string;
  token: string;
}

export async function makeUser(
  models: IdentityModels,
  options: {
    admin?: boolean;
    scopes?: string[];
    expiresAt?: string | null;
    revoked?: boolean;
    username?: string;
  } = {},
): Promise<UserFixture> {
  const userId = id();
  const username = options.username ?? `user${userId}`;
  await models.users.create({
    _id: userId,
    username,
    usernameLower: username.toLowerCase(),
    name: `User ${userId}`,
    email: `${username}@example.com`,
    emailLower: `${username}@example.com`,
    emails: [],
    state: 'active',
    isAdmin: options.admin ?? false,
    bio: '',
    namespaceId: id(),
    canCreateGroup: true,
    projectsLimit: 100,
    passwordHash: null,
  });
  const token = await makeToken(models, userId, options);
  return { id: userId, username, token };
}

export async function makeToken(
  models: IdentityModels,
  userId: number,
  options: { scopes?: string[]; expiresAt?: string | null; revoked?: boolean } = {},
): Promise<string> {
  const token = `glpat-test${id()}xxxxxxxxxx`;
  await models.tokens.create({
    _id: id(),
    userId,
    name: 'test',
    tokenHash: hashToken(token),
    scopes: options.scopes ?? ['api'],
    expiresAt: options.expiresAt ?? null,
    revoked: options.revoked ?? false,
    createdAt: new Date(),
    lastUsedAt: null,
  });
  return token;
}

export async function makeGroup(
  models: IdentityModels,
  options: { path?: string; parent?: NamespaceDoc; visibility?: NamespaceDoc['visibility'] } = {},
): Promise<NamespaceDoc> {
  const groupId = id();
  const path = options.path ?? `group${groupId}`;
  const fullPath = options.parent ? `${options.parent.fullPath}/${path}` : path;
  const group: NamespaceDoc = {
    _id: groupId,
    kind: 'group',
    name: path,
    path,
    fullPath,
    fullPathLower: fullPath.toLowerCase(),
    fullName: options.parent ? `${options.parent.fullName} / ${path}` : path,
    parentId: options.parent?._id ?? null,
    ancestorIds: options.parent ? [...options.parent.ancestorIds, options.parent._id] : [],
    visibility: options.visibility ?? 'private',
    description: '',
    ownerId: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  };
  await models.namespaces.create(group);
  return group;
}

export async function makeProject(
  models: IdentityModels,
  group: NamespaceDoc,
  options: { path?: string; visibility?: ProjectDoc['visibility'] } = {},
): Promise<ProjectDoc> {
  const projectId = id();
  const path = options.path ?? `project${projectId}`;
  const fullPath = `${group.fullPath}/${path}`;
  const now = new Date();
  const project: ProjectDoc = {
    _id: projectId,
    name: path,
    path,
    fullPath,
    fullPathLower: fullPath.toLowerCase(),
    namespaceId: group._id,
    namespaceKind: 'group',
    ancestorGroupIds: [...group.ancestorIds, group._id],
    visibility: options.visibility ?? 'private',
    description: '',
    defaultBranch: 'main',
    creatorId: 1,
    starCount: 0,
    createdAt: now,
    updatedAt: now,
    lastActivityAt: now,
  };
  await models.projects.create(project);
  return project;
}

export async function addMember(
  models: IdentityModels,
  source: { kind: 'group' | 'project'; id: number },
  userId: number,
  accessLevel: number,
  expiresAt: string | null = null,
): Promise<void> {
  await models.members.create({
    _id: id(),
    sourceType: source.kind,
    sourceId: source.id,
    userId,
    accessLevel,
    expiresAt,
    createdBy: null,
  });
}
