import { byOperationId, defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { globalNotificationSettingEntity, notificationSettingEntity } from './entities';
import {
  notificationSourceParams,
  updateGlobalNotificationSettingParams,
  updateNotificationSettingParams,
} from './params';

const tags = ['notification_settings'];

function sourceEndpoints(kind: 'group' | 'project'): EndpointDeclaration[] {
  const plural = `${kind}s`;
  const name = kind === 'group' ? 'Group' : 'Project';
  return [
    {
      method: 'GET',
      path: `/${plural}/{id}/notification_settings`,
      operationId: `get${name}NotificationSettings`,
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
      operationId: `update${name}NotificationSettings`,
      summary: `Update the caller's notification setting for a ${kind}`,
      tags,
      auth: 'token',
      params: updateNotificationSettingParams.extend(notificationSourceParams.shape),
      response: { status: 200, description: 'Setting', schema: notificationSettingEntity },
      errors: [400, 401, 404],
    },
  ];
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
  ...sourceEndpoints('group'),
  ...sourceEndpoints('project'),
]);

/** The catalogue by operation id, for handler registration: `NOTIFICATIONS_API.<operationId>`. */
export const NOTIFICATIONS_API = byOperationId(NOTIFICATIONS_ENDPOINTS);
