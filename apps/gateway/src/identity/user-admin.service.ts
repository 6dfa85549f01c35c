import type { EventActor, UpdateUserBody } from '@gl/contracts';
import { ConflictError, ModelError, type EventOrigin } from '@gl/service-kit';
import { destroyGroupTree, destroyProject } from './cascade';
import type { IdentityDeps } from './identity.deps';
import { EVENT_TYPES, projectEvent, userDestroyedEvent, userEvent } from './identity.events';
import type { NamespaceDoc, ProjectDoc, UserDoc, UserProfile } from './identity.models';

export type { UserDoc };
import { removeMember } from './member-writes';
import type { ValidationErrors } from './paths';
import { hashPassword } from './passwords';
import { userAttributeErrors } from './user-rules';
import { isInternalUser } from './users.internal';

/** The profile fields of PUT /users/:id, by parameter name. */
const PROFILE_FIELDS = {
  skype: 'skype',
  linkedin: 'linkedin',
  twitter: 'twitter',
  discord: 'discord',
  website_url: 'websiteUrl',
  organization: 'organization',
  location: 'location',
  pronouns: 'pronouns',
  public_email: 'publicEmail',
  commit_email: 'commitEmail',
  note: 'note',
  job_title: 'jobTitle',
  external: 'external',
  private_profile: 'privateProfile',
  theme_id: 'themeId',
  color_scheme_id: 'colorSchemeId',
} as const satisfies Partial<Record<keyof UpdateUserBody, keyof UserProfile>>;

/** app/models/user.rb and user_detail.rb validations PUT /users/:id can trip (400 with the model errors). */
function updateErrors(user: UserDoc, input: UpdateUserBody): ValidationErrors {
  const errors = userAttributeErrors({ ...input, projectsLimit: input.projects_limit });
  // User#public_email and #commit_email must be one of the user's own verified addresses.
  const own = new Set([user.emailLower, ...user.emails.map((e) => e.toLowerCase())]);
  for (const [param, field] of [
    ['public_email', 'public_email'],
    ['commit_email', 'commit_email'],
  ] as const) {
    const value = input[param];
    if (value && value !== '_private' && !own.has(value.toLowerCase())) {
      errors.add(field, 'is not an email you own');
    }
  }
  return errors;
}

/** PUT and DELETE /users/:id: an administrator's edits and deletion of a user (lib/api/users.rb). */
export function createUserAdminService(deps: IdentityDeps) {
  const { stores } = deps;

  /**
   * The personal namespace follows a username change, and every personal project's full path with it
   * (Namespace#path is the username; Route#rename_descendants).
   */
  async function renameNamespace(user: UserDoc, username: string, origin: EventOrigin, actor: EventActor) {
    const namespace = await stores.namespaces.findById(user.namespaceId);
    if (!namespace) return;
    const route = { sourceType: 'namespace', sourceId: namespace._id } as const;
    if (!(await stores.routes.claim(username, route))) {
      throw new ConflictError('Username has already been taken');
    }
    const changes: Partial<NamespaceDoc> = {
      name: username,
      path: username,
      fullPath: username,
      fullPathLower: username.toLowerCase(),
      updatedAt: new Date(),
    };
    await stores.namespaces.update(namespace._id, changes, []);
    for (const project of await stores.projects.inNamespace(namespace._id)) {
      const fullPath = `${username}/${project.path}`;
      const next: ProjectDoc = {
        ...project,
        fullPath,
        fullPathLower: fullPath.toLowerCase(),
        updatedAt: new Date(),
      };
      const projectRoute = { sourceType: 'project', sourceId: project._id } as const;
      await stores.routes.takeOver(fullPath, projectRoute);
      await stores.projects.update(
        project._id,
        { fullPath, fullPathLower: next.fullPathLower, updatedAt: next.updatedAt },
        [projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, next)],
      );
      await stores.routes.release(project.fullPath, projectRoute);
    }
    await stores.routes.release(namespace.fullPath, route);
  }

  /**
   * PUT /users/:id. GitLab answers a taken address or username with 409 before validating; an e-mail
   * change waits for confirmation (Devise reconfirmable) unless `skip_reconfirmation`, so `email` keeps the
   * old address until then.
   */
  async function update(
    user: UserDoc,
    input: UpdateUserBody,
    origin: EventOrigin,
    actor: EventActor,
  ): Promise<UserDoc> {
    if (input.email !== undefined && (await stores.users.emailTakenByOther(input.email, user._id))) {
      throw new ConflictError('Email has already been taken');
    }
    const renamed = input.username !== undefined && input.username.toLowerCase() !== user.usernameLower;
    if (renamed && (await stores.routes.taken(input.username!))) {
      throw new ConflictError('Username has already been taken');
    }
    const errors = updateErrors(user, input);
    if (errors.has()) throw ModelError.fields(errors.fields);

    const profile: UserProfile = { ...user.profile };
    for (const [param, field] of Object.entries(PROFILE_FIELDS) as [
      keyof typeof PROFILE_FIELDS,
      keyof UserProfile,
    ][]) {
      if (input[param] !== undefined) (profile as Record<string, unknown>)[field] = input[param];
    }
    const changes: Partial<UserDoc> = { profile, updatedAt: new Date() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.bio !== undefined) changes.bio = input.bio;
    if (input.admin !== undefined) changes.isAdmin = input.admin;
    if (input.can_create_group !== undefined) changes.canCreateGroup = input.can_create_group;
    if (input.projects_limit !== undefined) changes.projectsLimit = input.projects_limit;
    if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
    if (input.email !== undefined && input.skip_reconfirmation === true) {
      const emailLower = input.email.toLowerCase();
      // The new primary is claimed among every address (unique), as at creation; the old one stays listed.
      if (emailLower !== user.emailLower && !(await stores.users.emailTakenByOther(emailLower, user._id))) {
        const claimed = await stores.users.insertEmail({
          _id: await deps.counters.next('user_emails'),
          userId: user._id,
          email: input.email,
          emailLower,
          confirmedAt: new Date(),
          createdAt: new Date(),
        });
        if (!claimed && (await stores.users.emailTakenByOther(emailLower, user._id))) {
          throw new ConflictError('Email has already been taken');
        }
      }
      changes.email = input.email;
      changes.emailLower = emailLower;
    }
    if (renamed) {
      await renameNamespace(user, input.username!, origin, actor);
      changes.username = input.username!;
      changes.usernameLower = input.username!.toLowerCase();
    }
    const updated: UserDoc = { ...user, ...changes };
    await stores.users.update(user._id, changes, [
      userEvent(origin, EVENT_TYPES.identity.userUpdated, actor, updated),
    ]);
    deps.outbox.kick();
    return updated;
  }

  /**
   * DELETE /users/:id (Users::DestroyService): refused with 409 while the user is the only Owner of a
   * group, unless `hard_delete`, which deletes those groups too. Personal projects, memberships, tokens
   * and addresses go; `user.destroyed` tells the services whether the user's contributions go with them
   * (`hardDelete`) or pass to the Ghost User.
   */
  async function remove(user: UserDoc, hardDelete: boolean, origin: EventOrigin, actor: EventActor) {
    const soloOwned = await stores.members.soloOwnedGroupIds(user._id);
    if (soloOwned.length > 0 && !hardDelete) {
      throw new ConflictError('User cannot be removed while is the sole-owner of a group');
    }
    // GitLab accepts the request (DeleteUserWorker runs later), but UserPolicy never grants :destroy_user on
    // an internal user, so Users::DestroyService refuses and the worker only logs it: nothing is removed.
    if (isInternalUser(user)) return;
    // Tokens first: whatever else fails, the account can no longer be used.
    await stores.users.removeCredentialsOf(user._id);
    for (const groupId of soloOwned) {
      const group = await stores.namespaces.findById(groupId);
      if (group) await destroyGroupTree(deps, group, origin, actor);
    }
    for (const project of await stores.projects.inNamespace(user.namespaceId)) {
      await destroyProject(deps, project, origin, actor);
    }
    for (const member of await stores.members.allOf(user._id))
      await removeMember(deps, member, origin, actor);
    // Their stars no longer count (User has_many :users_star_projects, dependent: :destroy).
    for (const projectId of await stores.stars.projectIdsOf(user._id)) {
      await stores.stars.remove(user._id, projectId);
      await stores.projects.setStarCount(projectId, await stores.stars.countFor(projectId));
    }
    await stores.users.remove(user._id, [userDestroyedEvent(origin, actor, user, hardDelete)]);
    await stores.namespaces.deleteById(user.namespaceId);
    await stores.routes.release(user.username, { sourceType: 'namespace', sourceId: user.namespaceId });
    deps.outbox.kick();
  }

  return { update, remove };
}
export type UserAdminService = ReturnType<typeof createUserAdminService>;
