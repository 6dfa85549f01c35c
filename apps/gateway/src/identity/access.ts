import type { Principal } from '@gl/contracts';
import { ACCESS_LEVELS } from '@gl/contracts';
import { ForbiddenError } from '@gl/service-kit';

/**
 * GitLab's role rules for the identity catalogue, in one place. Administrators pass every check, as
 * `can?` does for admins in GitLab's policies.
 */
export const MAINTAINER = ACCESS_LEVELS.maintainer;
export const OWNER = ACCESS_LEVELS.owner;

/** Default `subgroup_creation_level` is maintainer. */
export const CREATE_SUBGROUP_LEVEL = ACCESS_LEVELS.maintainer;
/** Default `project_creation_level` (DEVELOPER_MAINTAINER_PROJECT_ACCESS): developers and above. */
export const CREATE_PROJECT_LEVEL = ACCESS_LEVELS.developer;

const ROLE_NAMES: Record<number, string> = {
  5: 'Minimal Access',
  10: 'Guest',
  20: 'Reporter',
  30: 'Developer',
  40: 'Maintainer',
  50: 'Owner',
};

export function roleName(level: number): string {
  return ROLE_NAMES[level] ?? String(level);
}

export function hasLevel(principal: Principal, level: number, needed: number): boolean {
  return principal.isAdmin || level >= needed;
}

/** `authorize!` failure: 403 {"message":"403 Forbidden"}. */
export function requireLevel(principal: Principal, level: number, needed: number): void {
  if (!hasLevel(principal, level, needed)) throw new ForbiddenError();
}

export function requireAdmin(principal: Principal): void {
  if (!principal.isAdmin) throw new ForbiddenError();
}

const VISIBILITY_RANK = { private: 0, internal: 10, public: 20 } as const;
export type VisibilityName = keyof typeof VISIBILITY_RANK;

export function moreVisible(a: VisibilityName, b: VisibilityName): boolean {
  return VISIBILITY_RANK[a] > VISIBILITY_RANK[b];
}

export function visibilitiesAbove(visibility: VisibilityName): VisibilityName[] {
  return (Object.keys(VISIBILITY_RANK) as VisibilityName[]).filter((v) => moreVisible(v, visibility));
}
