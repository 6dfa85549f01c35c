import { z } from 'zod';
import type { BaseServiceConfig } from '@gl/service-kit';

export const registryConfigSchema = z.object({
  /** The exact `Authorization` header value the registry sends with notifications. */
  REGISTRY_NOTIFICATION_SECRET: z.string().default(''),
  /** host:port shown in `location`. */
  REGISTRY_HOST: z.string().default('registry.example.com:5000'),
  /** The registry's own API (http://host:port); unset: tag details come from notifications only. */
  REGISTRY_API_URL: z.string().optional(),
  /** Most tags one bulk delete removes (0 = no cap); the rest waits for the next call. */
  REGISTRY_CLEANUP_MAX_TAGS: z.coerce.number().int().min(0).default(0),
});
export type RegistryConfig = BaseServiceConfig & z.infer<typeof registryConfigSchema>;
