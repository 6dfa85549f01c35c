/**
 * What a domain event carries of a free-text field: the text itself when it fits in `max` characters, else
 * its start and "..." in `max` characters in all — ActiveSupport's `String#truncate(max)`, which GitLab uses
 * for the same purpose (PushEventPayloadService#commit_title: `truncate(70)`).
 *
 * Characters are UTF-16 code units, what JavaScript's `length` and zod's `.max()` count, so an excerpt always
 * passes the event schema's bound; a cut never splits a surrogate pair (an emoji is kept whole or dropped).
 */
export const EXCERPT_OMISSION = '...';

export function excerpt(text: string, max: number): string;
export function excerpt(text: string | null, max: number): string | null;
export function excerpt(text: string | null, max: number): string | null {
  if (text === null || text.length <= max) return text;
  const omission = max > EXCERPT_OMISSION.length ? EXCERPT_OMISSION : '';
  let stop = max - omission.length;
  const last = text.charCodeAt(stop - 1);
  if (last >= 0xd800 && last <= 0xdbff) stop -= 1; // a high surrogate whose pair would be cut off
  return `${text.slice(0, stop)}${omission}`;
}

/**
 * Whether `carried`, an `excerpt(text, max)`, is the whole text: anything shorter than the shortest cut
 * (`max` less a dropped surrogate half), or not ending in the omission. A text that happens to be that long
 * and end in "..." reads as cut (the caller then reads the original).
 */
export function isWholeText(carried: string, max: number): boolean {
  return carried.length < max - 1 || !carried.endsWith(EXCERPT_OMISSION);
}
