import { z } from 'zod';

const ms = (fallback: number, min = 1) => z.coerce.number().int().min(min).default(fallback);

const urlList = z.array(z.string().url()).min(1);

/**
 * Delivery settings. Retries: 10 s doubling to 1 h, for 24 h (GitLab's WebHooks::AutoDisabling gives a
 * failing hook about a day of back-off before it stops); tests shorten them.
 */
export const deliveryConfigSchema = z.object({
  /**
   * Where discussions serves, one URL or its replicas' separated by commas (as the gateway's
   * DISCUSSIONS_URL): payloads read issues, merge requests and notes there, replicas in turn.
   */
  DISCUSSIONS_URL: z
    .union([
      // Already read: the app reads the settings runService parsed.
      urlList,
      z
        .string()
        .transform((value) =>
          value
            .split(',')
            .map((url) => url.trim())
            .filter(Boolean),
        )
        .pipe(urlList),
    ])
    .default(['http://127.0.0.1:8080']),
  /** GitLab's external URL: X-Gitlab-Instance and the payloads' URLs. */
  GITLAB_EXTERNAL_URL: z.string().url().default('http://localhost'),
  HOOKS_GITLAB_VERSION: z.string().default('17.0.0'),
  HOOKS_RETRY_BASE_MS: ms(10_000),
  HOOKS_RETRY_MAX_MS: ms(3_600_000),
  HOOKS_RETRY_FOR_MS: ms(24 * 3_600_000, 0),
  HOOKS_TIMEOUT_MS: ms(10_000),
  HOOKS_LEASE_MS: ms(60_000),
  HOOKS_SENDER_POLL_MS: ms(1_000),
  /**
   * A hook's queue is bounded (queue-bound.ts): past this many queued deliveries, or for those queued
   * longer than the age, the oldest are set aside (failed, with the reason), checked every
   * HOOKS_QUEUE_CHECK_MS.
   */
  HOOKS_QUEUE_MAX_DELIVERIES: ms(100_000),
  HOOKS_QUEUE_MAX_AGE_MS: ms(7 * 24 * 3_600_000),
  HOOKS_QUEUE_CHECK_MS: ms(60_000),
});
export type DeliveryConfig = z.infer<typeof deliveryConfigSchema>;
