import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/** Structured JSON logs, one logger per process, tagged with the service name. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers["private-token"]',
        'req.headers.authorization',
        'req.headers["x-gl-context"]',
        'req.headers.cookie',
      ],
      censor: '[redacted]',
    },
  });
}
