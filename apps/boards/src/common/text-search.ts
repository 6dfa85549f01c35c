/** A case-insensitive "contains" condition for a search term, as GitLab's `search` parameters match. */
export function containsText(term: string): { $regex: string; $options: 'i' } {
  return { $regex: term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), $options: 'i' };
}
