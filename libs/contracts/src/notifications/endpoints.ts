import { byOperationId, defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { globalNotificationSettingEntity, notificationSettingEntity } from './entities';
import {
  notificationSourceParams,
  updateGlobalNotificationSettingParams,
  updateNotificationSettingParams,
} from './params';

const tags = ['notification_settings'];

/** A group's or a project's setting; typed per kind, so handlers get `getGroupNotificationSettings`'s params. */
function sourceEndpoints<const K extends 'group' | 'project'>(kind: K, name: Capitalize<K>) {
  const plural = `${kind}s`;
  return [
    {
      method: 'GET',
      path: `/${plural}/{id}/notification_settings`,
      operationId: `get${name}NotificationSettings` as const,
      summary: `The caller's notification setting for a ${kind}, defaults to global`,
      tags,
      auth: 'token',
      params: notificationSourceParams,
      response: { status: 200, description: 'Setting', schema: notificationSettingEntity },
      errors: [401, 404],
    },
    {
      method: 'PUT',
      path: `/${plural}/{id}/notification_settings`,
      operationId: `update${name}NotificationSettings` as const,
      summary: `Update the caller's notification setting for a ${kind}`,
      tags,
      auth: 'token',
      params: updateNotificationSettingParams.extend(notificationSourceParams.shape),
      response: { status: 200, description: 'Setting', schema: notificationSettingEntity },
      errors: [400, 401, 404],
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

export const NOTIFICATIONS_ENDPOINTS = defineEndpoints('notifications', [
  {
    method: 'GET',
    path: '/notification_settings',
    operationId: 'getGlobalNotificationSettings',
    summary: "The caller's global notification setting and e-mail, defaults to participating",
    tags,
    auth: 'token',
    response: { status: 200, description: 'Global setting', schema: globalNotificationSettingEntity },
    errors: [401],
  },
  {
    method: 'PUT',
    path: '/notification_settings',
    operationId: 'updateGlobalNotificationSettings',
    summary: "Update the caller's global notification setting and e-mail",
    tags,
    auth: 'token',
    params: updateGlobalNotificationSettingParams,
    response: { status: 200, description: 'Global setting', schema: globalNotificationSettingEntity },
    errors: [400, 401],
  },
  ...sourceEndpoints('group', 'Group'),
  ...sourceEndpoints('project', 'Project'),
]);

/** The catalogue by operation id, for handler registration: `NOTIFICATIONS_API.<operationId>`. */
export const NOTIFICATIONS_API = byOperationId(NOTIFICATIONS_ENDPOINTS);
