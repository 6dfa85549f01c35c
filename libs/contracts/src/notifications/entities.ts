import { z } from 'zod';

/** Notification levels, in GitLab's enum order (app/models/notification_setting.rb). */
export const NOTIFICATION_LEVELS = [
  'disabled',
  'participating',
  'watch',
  'global',
  'mention',
  'custom',
] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

/** The per-event switches of the `custom` level, in GitLab's EMAIL_EVENTS order; `new_epic` is higher tier. */
export const NOTIFICATION_EVENTS = [
  'new_note',
  'new_issue',
  'reopen_issue',
  'close_issue',
  'reassign_issue',
  'issue_due',
  'new_merge_request',
  'push_to_merge_request',
  'reopen_merge_request',
  'close_merge_request',
  'reassign_merge_request',
  'merge_merge_request',
  'failed_pipeline',
  'fixed_pipeline',
  'success_pipeline',
  'moved_project',
  'new_epic',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** Events only higher tiers have (EE `EMAIL_EVENTS_MAPPING`: groups and the global setting). */
export const HIGHER_TIER_NOTIFICATION_EVENTS: readonly NotificationEvent[] = ['new_epic'];

/** Raw switch values as GitLab shows them: `null` for a switch never set (`moved_project` defaults to true). */
export const notificationEventsEntity = z
  .object(
    Object.fromEntries(NOTIFICATION_EVENTS.map((e) => [e, z.boolean().nullable().optional()])) as Record<
      NotificationEvent,
      z.ZodOptional<z.ZodNullable<z.ZodBoolean>>
    >,
  )
  .describe('Present only when the level is custom; new_epic only on higher tiers');

export const notificationSettingEntity = z.object({
  level: z.enum(NOTIFICATION_LEVELS),
  events: notificationEventsEntity.optional(),
});
export type NotificationSettingEntity = z.infer<typeof notificationSettingEntity>;

export const globalNotificationSettingEntity = notificationSettingEntity.extend({
  notification_email: z.string(),
});
export type GlobalNotificationSettingEntity = z.infer<typeof globalNotificationSettingEntity>;
