import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string | Buffer): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Compares a secret a client sent with the expected one in constant time, whatever either holds.
 * `timingSafeEqual` throws on buffers of different byte lengths, and a string's length is not its byte
 * length (a non-ASCII header of the secret's character count used to be a 500 that revealed the
 * secret's length): both sides are hashed to 32 bytes first, so neither the comparison nor its timing
 * depends on what was sent. An empty expected value never matches (an unset secret refuses everyone).
 */
export function secretsEqual(given: string | Buffer | null | undefined, expected: string | Buffer): boolean {
  if (given === null || given === undefined || expected.length === 0) return false;
  return timingSafeEqual(digest(given), digest(expected));
}
