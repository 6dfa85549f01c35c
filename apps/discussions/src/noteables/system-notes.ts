import { toSentence } from '@gl/service-kit';

/**
 * Bodies of GitLab's system notes that need more than a fixed string (SystemNotes::IssuablesService).
 */

/** The changed span of each string: what is left once the common prefix and suffix are taken off. */
function changedSpans(before: string, after: string): [[number, number] | null, [number, number] | null] {
  const a = [...before];
  const b = [...after];
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const span = (length: number): [number, number] | null =>
    prefix < length - suffix ? [prefix, length - suffix] : null;
  return [span(a.length), span(b.length)];
}

/** Gitlab::Diff::InlineDiffMarkdownMarker: `{-deleted-}` / `{+added+}` around the changed span. */
function mark(text: string, span: [number, number] | null, symbol: '-' | '+'): string {
  if (!span) return text;
  const chars = [...text];
  const [from, to] = span;
  return `${chars.slice(0, from).join('')}{${symbol}${chars.slice(from, to).join('')}${symbol}}${chars.slice(to).join('')}`;
}

/**
 * `change_title`: "changed title from **{-Old-}** to **{+New+}**", marking the inline difference. GitLab
 * diffs the titles character by character (diff-match-patch with semantic clean-up); for the usual edit, one
 * changed stretch of the title, that is the span between the common prefix and suffix computed here.
 */
export function titleChangeNote(oldTitle: string, newTitle: string): string {
  // InlineDiff skips marking when the old text is empty.
  const [oldSpan, newSpan] = oldTitle === '' ? [null, null] : changedSpans(oldTitle, newTitle);
  return `changed title from **${mark(oldTitle, oldSpan, '-')}** to **${mark(newTitle, newSpan, '+')}**`;
}

/** Rails' Array#to_sentence: "a", "a and b", "a, b, and c". */
export { toSentence };

/**
 * `change_issuable_assignees`: "assigned to @a", "unassigned @b", "assigned to @a and unassigned @b";
 * null when nobody was added or removed.
 */
export function assigneesChangeNote(added: string[], removed: string[]): string | null {
  const parts: string[] = [];
  if (added.length > 0) parts.push(`assigned to ${toSentence(added.map((u) => `@${u}`))}`);
  if (removed.length > 0) parts.push(`unassigned ${toSentence(removed.map((u) => `@${u}`))}`);
  return parts.length > 0 ? parts.join(' and ') : null;
}

/** SystemNotes::IssuablesService#change_issuable_reviewers. */
export function reviewersChangeNote(added: string[], removed: string[]): string | null {
  const parts: string[] = [];
  if (added.length > 0) parts.push(`requested review from ${toSentence(added.map((u) => `@${u}`))}`);
  if (removed.length > 0) {
    parts.push(`removed review request for ${toSentence(removed.map((u) => `@${u}`))}`);
  }
  return parts.length > 0 ? parts.join(' and ') : null;
}
