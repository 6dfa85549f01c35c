import type { EndpointContract } from './endpoint';
import { IDENTITY_ENDPOINTS } from './identity';
import { DISCUSSIONS_ENDPOINTS } from './discussions';
import { REGISTRY_ENDPOINTS } from './registry';
import { BOARDS_ENDPOINTS } from './boards';
import { EVENTS_API_ENDPOINTS } from './events-api';
import { NOTIFICATIONS_ENDPOINTS } from './notifications';
import { ALERTS_ENDPOINTS } from './alerts';
import { HOOKS_ENDPOINTS } from './hooks';

/** Every documented endpoint; each domain's contracts append their list here. */
export const ENDPOINTS: EndpointContract[] = [
  ...IDENTITY_ENDPOINTS,
  ...DISCUSSIONS_ENDPOINTS,
  ...REGISTRY_ENDPOINTS,
  ...BOARDS_ENDPOINTS,
  ...EVENTS_API_ENDPOINTS,
  ...NOTIFICATIONS_ENDPOINTS,
  ...ALERTS_ENDPOINTS,
  ...HOOKS_ENDPOINTS,
];
