import type { FilterQuery } from 'mongoose';
import type { UserDoc } from './identity.models';

/** A `search` parameter as a case-insensitive substring match: the text is taken literally, never as a regex. */
export function searchPattern(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

/** User.search: the name or username contains the text, or the e-mail address is exactly it. */
export function userSearchConditions(text: string): FilterQuery<UserDoc>[] {
  const pattern = searchPattern(text);
  return [{ name: pattern }, { username: pattern }, { emailLower: text.toLowerCase() }];
}
