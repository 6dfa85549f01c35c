import { z } from 'zod';
import { booleanParam, integerParam, recordIdParam } from '../primitives';
import { userSummary } from '../shared';
import { dayParam, stringParam } from './params';

/** Levels a membership may have (Gitlab::Access.all_values). */
export const MEMBER_ACCESS_LEVELS = [10, 20, 30, 40, 50] as const;

/** POST /:source/:id/members; `user_id` and `username` are mutually exclusive, at least one required. */
export const addMemberBody = z.object({
  access_level: integerParam,
  user_id: integerParam.optional(),
  username: stringParam.optional(),
  expires_at: dayParam.nullable().optional(),
});
export type AddMemberBody = z.infer<typeof addMemberBody>;

export const updateMemberBody = z.object({
  user_id: integerParam,
  access_level: integerParam,
  expires_at: dayParam.nullable().optional(),
});
export type UpdateMemberBody = z.infer<typeof updateMemberBody>;

export const memberUserParam = z.object({ user_id: recordIdParam });

export const removeMemberQuery = z.object({
  user_id: integerParam,
  skip_subresources: booleanParam.optional(),
});

export const listMembersQuery = z.object({
  query: stringParam.optional(),
  user_ids: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value),
      z.array(integerParam),
    )
    .optional(),
});
export type ListMembersQuery = z.infer<typeof listMembersQuery>;

/** Entities::Member: the user's basic fields merged with the membership. */
export const memberEntity = userSummary.extend({
  access_level: z.number().int(),
  created_at: z.string(),
  created_by: userSummary.optional(),
  expires_at: z.string().nullable(),
  membership_state: z.string(),
});
