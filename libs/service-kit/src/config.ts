import { z } from 'zod';
import { DEFAULT_STREAM_LIMITS, parseBytes, parseDurationMs } from './bus/stream-limits';

export class ConfigError extends Error {
  constructor(
    readonly service: string,
    readonly problems: string[],
  ) {
    super(`${service}: invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment with the app's schema once, listing every bad key (not just the first),
 * and freezes the result so nothing mutates configuration at run time.
 */
export function loadConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Record<string, string | undefined> = process.env,
): Readonly<z.infer<S>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const key = issue.path.join('.') || '(root)';
      const value = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
      return value === undefined
        ? `${key} is missing: ${issue.message}`
        : `${key}=${JSON.stringify(value)}: ${issue.message}`;
    });
    throw new ConfigError(service, problems);
  }
  return Object.freeze(result.data);
}

/** Settings every service shares. Apps extend this schema with their own keys. */
export const baseServiceConfig = z.object({
  PORT: z.coerce.number().int().min(0).max(65535),
  HOST: z.string().default('127.0.0.1'),
  MONGO_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL'),
  /** One server, or every server of a cluster separated by commas. */
  NATS_URL: z
    .string()
    .regex(/^nats:\/\/[^,]+(,\s*nats:\/\/[^,]+)*$/, 'must be nats:// URLs separated by commas'),
  /** Copies of the event stream when it is created: 3 on a three-node JetStream cluster. */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /** How long the event stream keeps a message (`7d`, `36h`, `2s`; a number is seconds); oldest go first. */
  NATS_STREAM_MAX_AGE: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return DEFAULT_STREAM_LIMITS.maxAgeMs;
      const ms = parseDurationMs(text);
      if (ms === undefined || ms < 1000) ctx.addIssue('must be a duration of at least 1s, e.g. 7d, 36h, 90m');
      return ms ?? 0;
    }),
  /** How many bytes the event stream keeps (`10GiB`, `500MB`; a number is bytes); oldest go first. */
  NATS_STREAM_MAX_BYTES: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return DEFAULT_STREAM_LIMITS.maxBytes;
      const bytes = parseBytes(text);
      if (bytes === undefined || bytes < 1024 * 1024)
        ctx.addIssue('must be a size of at least 1MiB, e.g. 10GiB, 500MB');
      return bytes ?? 0;
    }),
  INTERNAL_CONTEXT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Tries before the outbox relay sets aside an event the broker refuses (outbox.ts). */
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
});
export type BaseServiceConfig = z.infer<typeof baseServiceConfig>;
