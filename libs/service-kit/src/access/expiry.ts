/**
 * GitLab's dates without a time (`expires_at` of memberships and personal access tokens) are calendar days
 * in UTC, compared as `YYYY-MM-DD` strings. Something that expires on a day is expired from that day on
 * (Member#expired?, PersonalAccessToken#expired?: `expires_at <= Date.current`).
 */
const DAY_MS = 86_400_000;
/**
 * The day last computed and when it began: the gateway asks for every membership of every request (each
 * `hasExpired`), and formatting a date each time showed in its profile.
 */
let today = { day: '', from: Number.POSITIVE_INFINITY };

export function todayUtc(): string {
  const now = Date.now();
  if (now < today.from || now >= today.from + DAY_MS) {
    const day = new Date(now).toISOString().slice(0, 10);
    today = { day, from: Date.parse(`${day}T00:00:00Z`) };
  }
  return today.day;
}

/** Whether a membership or token with this expiry date is expired today. */
export function hasExpired(expiresAt: string | null | undefined): boolean {
  return expiresAt !== null && expiresAt !== undefined && expiresAt <= todayUtc();
}
