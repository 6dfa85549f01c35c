/**
 * The Ruby and Rails string forms GitLab's error messages are built from, written once: model errors
 * embedded in a 400 message (`bad_request!("Note #{note.errors.messages}")`, `Failed to save group
 * {:path=>["has already been taken"]}`) and `errors.full_messages.to_sentence` answers. The message texts
 * themselves (`is too long (maximum is 255 characters)`) are in libs/contracts limits.ts, the response
 * bodies in errors.ts (`BadRequestError`: "400 Bad request - ...", `ModelError`: {"message":{...}}).
 */

/** Ruby's Hash#inspect of `errors.messages`: `{:title=>["is too long (maximum is 255 characters)"]}`. */
export function rubyInspect(errors: Record<string, string[]>): string {
  const entries = Object.entries(errors).map(
    ([key, messages]) => `:${key}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`,
  );
  return `{${entries.join(', ')}}`;
}

/** Rails' Array#to_sentence: "a", "a and b", "a, b, and c". */
export function toSentence(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** Rails' `humanize` of an attribute name, as `full_messages` prefixes it: `file_name` → "File name". */
export function humanize(attribute: string): string {
  const words = attribute.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `errors.full_messages.to_sentence`: "Title is too long (...) and File name can't be blank". */
export function fullMessagesSentence(errors: [attribute: string, message: string][]): string {
  return toSentence(errors.map(([attribute, message]) => `${humanize(attribute)} ${message}`));
}
