import type { EndpointContract } from '../endpoint';
import { NOTEABLE_ENDPOINTS } from './noteable-endpoints';
import { THREAD_ENDPOINTS } from './thread-endpoints';

export const DISCUSSIONS_ENDPOINTS: EndpointContract[] = [...NOTEABLE_ENDPOINTS, ...THREAD_ENDPOINTS];
