/** `created_at` as Rails would take it: a parseable time, else ignored. */
export function parseCreatedAt(raw: string | undefined): Date | null {
  if (!raw) return null;
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? null : date;
}
