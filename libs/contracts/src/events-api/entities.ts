import { z } from 'zod';
import { userSummary } from '../shared';

/** The `note` object of a `commented on` event (GitLab's Note entity, the fields the spec names). */
export const activityNoteEntity = z.object({
  id: z.number().int(),
  type: z.string().nullable(),
  body: z.string(),
  attachment: z.null(),
  author: userSummary,
  created_at: z.string(),
  system: z.boolean(),
  noteable_id: z.number().int().nullable(),
  noteable_type: z.string(),
  noteable_iid: z.number().int().nullable(),
  commit_id: z.string().nullable(),
});
export type ActivityNoteEntity = z.infer<typeof activityNoteEntity>;

/** `push_data` of a push event (GitLab's PushEventPayload entity). */
export const pushDataEntity = z.object({
  commit_count: z.number().int(),
  action: z.enum(['created', 'pushed', 'removed']),
  ref_type: z.enum(['branch', 'tag']),
  commit_from: z.string().nullable(),
  commit_to: z.string().nullable(),
  ref: z.string(),
  commit_title: z.string().nullable(),
  ref_count: z.null(),
});
export type PushDataEntity = z.infer<typeof pushDataEntity>;

/** One activity event (spec "Activity event"; GitLab's Entities::Event). */
export const activityEventEntity = z.object({
  id: z.number().int(),
  /** Legacy column, null on every event (GitLab still exposes it). */
  title: z.null(),
  project_id: z.number().int().nullable(),
  action_name: z.string(),
  target_id: z.number().int().nullable(),
  target_iid: z.number().int().nullable(),
  target_type: z.string().nullable(),
  author_id: z.number().int(),
  /** Legacy serialized payload column, null on every event (GitLab still exposes it). */
  data: z.null(),
  target_title: z.string().nullable(),
  created_at: z.string(),
  author: userSummary.optional(),
  note: activityNoteEntity.optional(),
  push_data: pushDataEntity.optional(),
  imported: z.boolean(),
  imported_from: z.string(),
  author_username: z.string().nullable(),
});
export type ActivityEventEntity = z.infer<typeof activityEventEntity>;
