import type { MemberDoc, UserDoc } from './identity.models';
import { userBasic } from './users.entities';

/** Entities::Member: the member's UserBasic fields merged with the membership. */
export function memberEntity(
  externalUrl: string,
  member: MemberDoc,
  user: UserDoc,
  createdBy: UserDoc | null,
) {
  return Object.assign(userBasic(externalUrl, user), {
    access_level: member.accessLevel,
    created_at: member.createdAt.toISOString(),
    ...(createdBy ? { created_by: userBasic(externalUrl, createdBy) } : {}),
    expires_at: member.expiresAt,
    membership_state: 'active',
  });
}
