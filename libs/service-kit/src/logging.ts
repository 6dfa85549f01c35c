import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';
export { isErrorAnswer, redactUrl, requestLogging } from './request-logging';

/**
 * Structured JSON logs, one logger per process, tagged with the service name. They go to stdout only: in a
 * container the runtime keeps (and caps) them; `npm start` writes each process's output to a size-capped,
 * rotated file (tools/infra/src/rotating-log.ts). `destination` is for tests.
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream): Logger {
  const options = {
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
        'req.headers["job-token"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
