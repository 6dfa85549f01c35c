import { z } from 'zod';
import { booleanParam } from '../primitives';
import { NOTIFICATION_EVENTS, type NotificationEvent } from './entities';

const eventSwitches = Object.fromEntries(
  NOTIFICATION_EVENTS.map((e) => [e, booleanParam.optional()]),
) as Record<NotificationEvent, z.ZodOptional<typeof booleanParam>>;

/** Grape's `type: String` turns numbers into strings; anything else is "<name> is invalid". */
const stringParam = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

/**
 * PUT /groups/:id|/projects/:id/notification_settings. `level` is a free string as in Grape: an unknown
 * value is the model's error ("'x' is not a valid level"), not a parameter error.
 */
export const updateNotificationSettingParams = z.object({
  level: stringParam.optional(),
  ...eventSwitches,
});
export type UpdateNotificationSettingParams = z.infer<typeof updateNotificationSettingParams>;

/** PUT /notification_settings: the same plus the address notifications go to. */
export const updateGlobalNotificationSettingParams = updateNotificationSettingParams.extend({
  notification_email: stringParam.optional(),
});
export type UpdateGlobalNotificationSettingParams = z.infer<typeof updateGlobalNotificationSettingParams>;

export const notificationSourceParams = z.object({ id: z.string() });
