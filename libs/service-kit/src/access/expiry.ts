/**
 * GitLab's dates without a time (`expires_at` of memberships and personal access tokens) are calendar days
 * in UTC, compared as `YYYY-MM-DD` strings. Something that expires on a day is expired from that day on
 * (Member#expired?, PersonalAccessToken#expired?: `expires_at <= Date.current`).
 */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Whether a membership or token with this expiry date is expired today. */
export function hasExpired(expiresAt: string | null | undefined): boolean {
  return expiresAt !== null && expiresAt !== undefined && expiresAt <= todayUtc();
}
