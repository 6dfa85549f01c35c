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

/**
 * A limit of the event stream written the way people write it (`parse` reads `7d` or `10GiB`): unset or
 * empty is the default; anything `parse` cannot read, or below `min`, is reported with `problem`.
 */
function streamLimit(
  parse: (text: string) => number | undefined,
  min: number,
  fallback: number,
  problem: string,
) {
  return z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text === '') return fallback;
      const value = parse(text);
      if (value === undefined || value < min) ctx.addIssue(problem);
      return value ?? 0;
    });
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
  NATS_STREAM_MAX_AGE: streamLimit(
    parseDurationMs,
    1000,
    DEFAULT_STREAM_LIMITS.maxAgeMs,
    'must be a duration of at least 1s, e.g. 7d, 36h, 90m',
  ),
  /** How many bytes the event stream keeps (`10GiB`, `500MB`; a number is bytes); oldest go first. */
  NATS_STREAM_MAX_BYTES: streamLimit(
    parseBytes,
    1024 * 1024,
    DEFAULT_STREAM_LIMITS.maxBytes,
    'must be a size of at least 1MiB, e.g. 10GiB, 500MB',
  ),
  INTERNAL_CONTEXT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Tries before the outbox relay sets aside an event the broker refuses (outbox.ts). */
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(5),
});
export type BaseServiceConfig = z.infer<typeof baseServiceConfig>;
