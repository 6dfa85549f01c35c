import type { AddMemberBody, ListMembersQuery, Principal, UpdateMemberBody } from '@gl/contracts';
import { MEMBER_ACCESS_LEVELS } from '@gl/contracts';
import {
  ConflictError,
  ForbiddenError,
  eventActor,
  ModelError,
  NotFoundError,
  type EventOrigin,
  type PageRequest,
  hasExpired,
  todayUtc,
} from '@gl/service-kit';
import { MAINTAINER, OWNER, requireLevel, roleName } from './access';
import type { IdentityDeps } from './identity.deps';
import type { MemberDoc, UserDoc } from './identity.models';
import { insertMember, removeMember, updateMember } from './member-writes';
import { ValidationErrors } from './paths';

/** The group or project whose members are addressed, as resolved for the caller. */
export interface MemberSource {
  type: MemberDoc['sourceType'];
  id: number;
  /** Groups above it, outermost first (a project's own group included). */
  ancestorGroupIds: number[];
  /** The caller's level on it, inherited levels included. */
  accessLevel: number;
  /** The user owning a personal project's namespace: that membership cannot be removed. */
  personalOwnerId: number | null;
}

export interface MemberRow {
  member: MemberDoc;
  user: UserDoc;
  createdBy: UserDoc | null;
}

/** Members of groups and projects (lib/api/members.rb + Members::*Service + member policies). */
export function createMembersService(deps: IdentityDeps) {
  const { stores } = deps;

  async function withUsers(members: MemberDoc[]): Promise<MemberRow[]> {
    const ids = [
      ...new Set(members.flatMap((m) => (m.createdBy === null ? [m.userId] : [m.userId, m.createdBy]))),
    ];
    const users = new Map((await stores.users.byIds(ids)).map((u) => [u._id, u]));
    return members.flatMap((member) => {
      const user = users.get(member.userId);
      if (!user) return [];
      return [
        { member, user, createdBy: member.createdBy === null ? null : (users.get(member.createdBy) ?? null) },
      ];
    });
  }

  /**
   * The users a list is narrowed to, or undefined for all: `user_ids`, and `query` matching name or
   * username (substring) or the exact e-mail, as User.search does.
   */
  async function usersFilter(query: ListMembersQuery): Promise<number[] | undefined> {
    const restrictions: number[][] = [];
    if (query.user_ids?.length) restrictions.push(query.user_ids);
    if (query.query) restrictions.push(await stores.users.idsMatching(query.query));
    if (restrictions.length === 0) return undefined;
    return restrictions.reduce((a, b) => a.filter((id) => b.includes(id)));
  }

  async function listDirect(
    source: MemberSource,
    query: ListMembersQuery,
    page: PageRequest,
  ): Promise<{ total: number; rows: MemberRow[] }> {
    const userIds = await usersFilter(query);
    const { total, docs } = await stores.members.pageOf(source.type, source.id, userIds, page);
    return { total, rows: await withUsers(docs) };
  }

  /** Direct and inherited members, one entry per user: the membership with the highest level wins. */
  async function effectiveMembers(source: MemberSource, users?: number | number[]): Promise<MemberDoc[]> {
    const rows = await stores.members.ofScope(source, users);
    const best = new Map<number, MemberDoc>();
    for (const row of rows) {
      if (hasExpired(row.expiresAt)) continue;
      const current = best.get(row.userId);
      if (!current || row.accessLevel > current.accessLevel) best.set(row.userId, row);
    }
    return [...best.values()].sort((a, b) => a._id - b._id);
  }

  async function listAll(
    source: MemberSource,
    query: ListMembersQuery,
    page: PageRequest,
  ): Promise<{ total: number; rows: MemberRow[] }> {
    const all = await effectiveMembers(source, await usersFilter(query));
    return { total: all.length, rows: await withUsers(all.slice(page.skip, page.skip + page.perPage)) };
  }

  async function directMember(source: MemberSource, userId: number): Promise<MemberDoc> {
    const member = await stores.members.findDirect(source.type, source.id, userId);
    // `find_by!` → ActiveRecord::RecordNotFound → 404 {"message":"404 Not found"}.
    if (!member) throw new NotFoundError();
    return member;
  }

  async function getDirect(source: MemberSource, userId: number): Promise<MemberRow> {
    const [row] = await withUsers([await directMember(source, userId)]);
    if (!row) throw new NotFoundError();
    return row;
  }

  async function getEffective(source: MemberSource, userId: number): Promise<MemberRow> {
    const [member] = await effectiveMembers(source, userId);
    const [row] = member ? await withUsers([member]) : [];
    if (!row) throw new NotFoundError();
    return row;
  }

  /** Member validations: a known level, no past expiry, not below what the user inherits from a group above. */
  async function validate(
    source: MemberSource,
    userId: number,
    accessLevel: number,
    expiresAt: string | null,
  ) {
    const errors = new ValidationErrors();
    if (!(MEMBER_ACCESS_LEVELS as readonly number[]).includes(accessLevel)) {
      errors.add('access_level', 'is not included in the list');
    } else if (source.ancestorGroupIds.length > 0) {
      const inherited = await stores.members.inGroups(userId, source.ancestorGroupIds);
      const highest = inherited
        .filter((m) => !hasExpired(m.expiresAt))
        .sort((a, b) => b.accessLevel - a.accessLevel)[0];
      if (highest && highest.accessLevel > accessLevel) {
        const groupName = await stores.namespaces.nameOf(highest.sourceId);
        errors.add(
          'access_level',
          `should be greater than or equal to ${roleName(highest.accessLevel)} inherited membership from group ${groupName ?? ''}`,
        );
      }
    }
    if (expiresAt !== null && expiresAt < todayUtc())
      errors.add('expires_at', 'cannot be a date in the past');
    if (errors.has()) throw ModelError.fields(errors.fields);
  }

  /**
   * Who may manage other people's memberships at all: `admin_group_member` is Owner-only
   * (app/policies/group_policy.rb), `admin_project_member` is Maintainer (app/policies/project_policy.rb).
   */
  function authorizeAdmin(principal: Principal, source: MemberSource): void {
    requireLevel(principal, source.accessLevel, source.type === 'group' ? OWNER : MAINTAINER);
  }

  /**
   * Granting the Owner role, or changing or removing an Owner, needs `manage_owners`, which only Owners
   * have (Members::CreateService#cannot_assign_owner_responsibilities_to_member_in_project?,
   * Members::UpdateService#prevent_upgrade_to_owner? / #prevent_downgrade_from_owner?). In a group this
   * adds nothing: only Owners administer group members in the first place.
   */
  function authorizeOwnerRole(principal: Principal, source: MemberSource, levels: number[]): void {
    if (levels.includes(OWNER)) requireLevel(principal, source.accessLevel, OWNER);
  }

  /** A group keeps at least one owner, counting owners inherited from groups above. */
  async function isLastOwner(source: MemberSource, member: MemberDoc): Promise<boolean> {
    if (source.type !== 'group' || member.accessLevel !== OWNER) return false;
    const owners = await stores.members.atLevelInGroups([...source.ancestorGroupIds, source.id], OWNER);
    return new Set(owners.filter((m) => !hasExpired(m.expiresAt)).map((m) => m.userId)).size <= 1;
  }

  /**
   * What the member policies keep from everyone: a group's last owner (GroupMemberPolicy `last_owner`) and
   * a personal project's owner (ProjectMemberPolicy `target_is_holder_of_the_personal_namespace`).
   */
  async function refuseProtected(source: MemberSource, member: MemberDoc): Promise<void> {
    if (await isLastOwner(source, member)) throw new ForbiddenError();
    if (source.personalOwnerId === member.userId) throw new ForbiddenError();
  }

  async function targetUser(params: Pick<AddMemberBody, 'user_id' | 'username'>): Promise<UserDoc> {
    const user =
      params.user_id !== undefined
        ? await stores.users.findById(params.user_id)
        : await stores.users.findByUsername(params.username!);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  /**
   * POST: the permission first (`authorize_admin_source!` before anything about the user, in
   * lib/api/members.rb), so nobody without it learns whether a user exists or is a member; then user 404,
   * 409 for an existing member, 403 for granting Owner without being one, validations (400).
   */
  async function add(
    source: MemberSource,
    params: AddMemberBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<MemberRow> {
    authorizeAdmin(principal, source);
    const user = await targetUser(params);
    if (await stores.members.exists(source.type, source.id, user._id)) {
      throw new ConflictError('Member already exists');
    }
    authorizeOwnerRole(principal, source, [params.access_level]);
    const expiresAt = params.expires_at ?? null;
    await validate(source, user._id, params.access_level, expiresAt);
    const member = await insertMember(
      deps,
      {
        sourceType: source.type,
        sourceId: source.id,
        userId: user._id,
        accessLevel: params.access_level,
        expiresAt,
        createdBy: principal.id,
      },
      origin,
      eventActor(principal),
    );
    const [row] = await withUsers([member]);
    return row!;
  }

  /**
   * PUT: the permission, then the member (404), then what the member policies forbid whoever asks
   * (403): a group's last owner (GroupMemberPolicy `last_owner`) and a personal project's owner
   * (ProjectMemberPolicy `target_is_holder_of_the_personal_namespace`) are not edited; then the Owner role
   * rule, then validations (400).
   */
  async function update(
    source: MemberSource,
    params: UpdateMemberBody,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<MemberRow> {
    authorizeAdmin(principal, source);
    const member = await directMember(source, params.user_id);
    await refuseProtected(source, member);
    authorizeOwnerRole(principal, source, [member.accessLevel, params.access_level]);
    const expiresAt = params.expires_at === undefined ? member.expiresAt : params.expires_at;
    await validate(source, member.userId, params.access_level, params.expires_at ?? null);
    const updated: MemberDoc = {
      ...member,
      accessLevel: params.access_level,
      expiresAt,
      updatedAt: new Date(),
    };
    await updateMember(deps, updated, origin, eventActor(principal));
    const [row] = await withUsers([updated]);
    return row!;
  }

  /**
   * DELETE: the member first (`find_by!`, 404), then Members::DestroyService's checks: members may leave
   * on their own; anyone else needs the admin permission (group Owner, project Maintainer), and an Owner
   * is only removed by an Owner. A group's last owner and a personal project's owner stay. Removing a
   * group member also removes their direct memberships in the group's subgroups and projects unless
   * `skip_subresources`.
   */
  async function remove(
    source: MemberSource,
    userId: number,
    skipSubresources: boolean,
    principal: Principal,
    origin: EventOrigin,
  ): Promise<void> {
    const member = await directMember(source, userId);
    if (member.userId !== principal.id) authorizeAdmin(principal, source);
    authorizeOwnerRole(principal, source, [member.accessLevel]);
    await refuseProtected(source, member);
    const actor = eventActor(principal);
    if (source.type === 'group' && !skipSubresources) {
      const [subgroupIds, projectIds] = await Promise.all([
        stores.namespaces.descendantIdsOf(source.id),
        stores.projects.idsUnderGroup(source.id),
      ]);
      const inner = await stores.members.ofUserIn(member.userId, subgroupIds, projectIds);
      for (const row of inner) await removeMember(deps, row, origin, actor);
    }
    if (!(await removeMember(deps, member, origin, actor))) throw new NotFoundError();
    deps.outbox.kick();
  }

  return { listDirect, listAll, getDirect, getEffective, add, update, remove };
}
export type MembersService = ReturnType<typeof createMembersService>;
