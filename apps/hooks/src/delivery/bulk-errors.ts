import { isDuplicateKeyError } from '@gl/service-kit';

/**
 * How many writes of an unordered bulk write failed on a duplicate key, when they are the only failures;
 * null for any other failure. Mongoose copies the driver's write errors into plain objects (the code is then
 * under `err`).
 */
export function duplicatesOnly(err: unknown): number | null {
  const writeErrors = (err as { writeErrors?: unknown } | null)?.writeErrors;
  if (writeErrors === undefined || writeErrors === null) return isDuplicateKeyError(err) ? 1 : null;
  const errors = [writeErrors].flat() as { code?: unknown; err?: unknown }[];
  const duplicate = (e: { code?: unknown; err?: unknown }) =>
    isDuplicateKeyError(e) || isDuplicateKeyError(e.err);
  return errors.length > 0 && errors.every(duplicate) ? errors.length : null;
}
