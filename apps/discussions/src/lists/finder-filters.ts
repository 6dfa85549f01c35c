import type { IssueListQuery, MergeRequestListQuery } from '@gl/contracts';
import {
  withAssignee,
  withLabel,
  withNoAssignee,
  withNoLabel,
  withoutAssignee,
  withoutLabel,
  withSomeAssignee,
  withSomeLabel,
} from '../noteables/word-filters';

/**
 * IssuableFinder's filters one parameter at a time (app/finders/issuable_finder.rb and its params), each a
 * database condition; issuables.finder.ts puts them together.
 */

/** What the query's names resolve to: milestone ids by title, user ids by username (absent = unknown). */
export interface FinderLookups {
  milestoneIds: Map<string, number[]>;
  userIds: Map<string, number>;
  /**
   * The issues and merge requests the caller awarded, by emoji name and under ANY_REACTION for every name;
   * absent when the query names no reaction or the caller is anonymous.
   */
  reactedIds?: Map<string, number[]>;
}

/** The key of `reactedIds` for what the caller awarded with any emoji. */
export const ANY_REACTION = '*';

export type IssuableKind = 'Issue' | 'MergeRequest';
type Loose = 'order_by' | 'state' | 'scope';
/** What the finder reads of an issue list, statistics or merge request list query. */
export type FinderQuery = Partial<Omit<IssueListQuery, Loose>> &
  Partial<Omit<MergeRequestListQuery, Loose>> & { state?: string; scope?: string };
type Query = FinderQuery;
export type Filter = Record<string, unknown>;

/** IssuableFinder::Params FILTER_NONE / FILTER_ANY, compared in lower case as GitLab does. */
export const isNone = (value: string): boolean =>
  ['none', 'no label', 'no+label'].includes(value.toLowerCase());
const isAny = (value: string): boolean => value.toLowerCase() === 'any';

/** Matches nothing: an unknown milestone title or username selects no issue, as in GitLab. */
export const NOTHING: Filter = { _id: { $in: [] } };

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * IssuableFinder#by_label: every label (AND), one condition each; `None` no label at all, `Any` at least
 * one. Label names compare as stored (labels are titles, case-sensitive). Literal patterns on `labelKeys`
 * (word-filters.ts), a trailing key of every list order's index, so a page walks index entries
 * without reading the documents it passes (`labelSet.<key>` was read from each document of the scope).
 */
export function labelFilter(labels: string[]): Filter[] {
  if (labels.length === 0) return [];
  if (labels.some(isNone)) return [withNoLabel()];
  if (labels.some(isAny)) return [withSomeLabel()];
  return labels.map((label) => withLabel(label));
}

/** `Upcoming` / `Started` (any case; `#upcoming` / `#started`, the older titles), else null. */
export function milestoneWildcard(value: string): 'upcoming' | 'started' | null {
  const lower = value.toLowerCase().replace(/^#/, '');
  return lower === 'upcoming' || lower === 'started' ? lower : null;
}

/**
 * IssuableFinder#by_milestone: a title (or, with the legacy filtering the API uses, a wildcard as title).
 * Upcoming: Milestone.upcoming_ids of the list's groups; Started: Milestone.started — both resolved to
 * milestone ids by the lookups (issuables.scope.ts milestoneWildcardIds).
 */
export function milestoneFilter(
  title: string | undefined,
  wildcard: string | undefined,
  lookups: FinderLookups,
): Filter {
  const value = wildcard ?? title;
  if (value === undefined) return {};
  const lower = value.toLowerCase();
  if (lower === 'none' || lower === 'no milestone') return { milestoneId: null };
  if (lower === 'any') return { milestoneId: { $gte: 1 } };
  const special = milestoneWildcard(value);
  if (special) return { milestoneId: { $in: lookups.milestoneIds.get(`#${special}`) ?? [] } };
  return { milestoneId: { $in: lookups.milestoneIds.get(value) ?? [] } };
}

/**
 * IssuableFinder#by_negated_milestone: `Upcoming` keeps items of active milestones due by today
 * (Milestone.not_upcoming), `Started` those of active milestones starting after today (not_started), both
 * through a join, so items without a milestone are left out; a title keeps every item not of it.
 */
function negatedMilestoneFilter(value: string, lookups: FinderLookups): Filter {
  const lower = value.toLowerCase();
  if (lower === 'none') return { milestoneId: { $gte: 1 } };
  if (lower === 'any') return { milestoneId: null };
  const special = milestoneWildcard(value);
  if (special) return { milestoneId: { $in: lookups.milestoneIds.get(`#not_${special}`) ?? [] } };
  return { milestoneId: { $nin: lookups.milestoneIds.get(value) ?? [] } };
}

/** author_id or author_username (the author is stored with the username it had). */
export function authorFilter(id: number | undefined, username: string | undefined): Filter {
  if (id !== undefined) return { 'author.id': id };
  return username === undefined ? {} : { 'author.username': username };
}

/**
 * assignee_id (an id, None or Any) and assignee_username (every name given: AND), on the assignee words
 * (`assigneeKeys`), which the list indexes carry.
 */
export function assigneeFilter(
  id: number | 'None' | 'Any' | undefined,
  usernames: string[] | undefined,
  lookups: FinderLookups,
): Filter[] {
  if (id === 'None') return [withNoAssignee()];
  if (id === 'Any') return [withSomeAssignee()];
  if (id !== undefined) return [withAssignee(id)];
  if (!usernames || usernames.length === 0) return [];
  const ids = userIdsOf(usernames, lookups);
  return ids ? ids.map(withAssignee) : [NOTHING];
}

/** reviewer_id (an id, None or Any) and reviewer_username, on a merge request's `reviewerIds`. */
export function reviewerFilter(
  id: number | 'None' | 'Any' | undefined,
  usernames: string[] | undefined,
  lookups: FinderLookups,
): Filter {
  // Merge requests written before reviewers existed have no `reviewerIds` at all.
  if (id === 'None') return { 'reviewerIds.0': { $exists: false } };
  if (id === 'Any') return { 'reviewerIds.0': { $exists: true } };
  if (id !== undefined) return { reviewerIds: id };
  if (!usernames || usernames.length === 0) return {};
  const ids = userIdsOf(usernames, lookups);
  return ids ? { reviewerIds: { $all: ids } } : NOTHING;
}

/** The ids of every username given, or null when one is unknown (then nothing matches, as in GitLab). */
function userIdsOf(usernames: string[], lookups: FinderLookups): number[] | null {
  const ids = usernames.map((name) => lookups.userIds.get(name));
  return ids.every((id): id is number => id !== undefined) ? ids : null;
}

/**
 * IssuableFinder#by_search → Issuable.full_search (Gitlab::SQL::Pattern): each word of 3 characters or
 * more (quoted phrases kept whole) must appear, in any case, in one of the searched columns; a query with
 * no such word must equal a column (case-insensitively). `in` names the columns (title, description).
 */
export function searchFilter(search: string | undefined, within: string | undefined): Filter {
  if (search === undefined || search.trim() === '') return {};
  const asked = (within ?? 'title,description').split(',').map((c) => c.trim());
  const columns = asked.filter((c) => c === 'title' || c === 'description');
  const fields = columns.length > 0 ? columns : ['title', 'description'];
  const words = [...search.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
  const long = words.filter((word) => word.length >= 3);
  if (long.length === 0) {
    const exact = `^${escapeRegex(search.trim())}$`;
    return { $or: fields.map((f) => ({ [f]: { $regex: exact, $options: 'i' } })) };
  }
  return {
    $and: long.map((word) => ({
      $or: fields.map((f) => ({ [f]: { $regex: escapeRegex(word), $options: 'i' } })),
    })),
  };
}

/** IssuableFinder#by_created_at / #by_updated_at: bounds included. */
export function dateRange(field: string, after: Date | undefined, before: Date | undefined): Filter {
  if (!after && !before) return {};
  const range: Record<string, Date> = {};
  if (after) range.$gte = after;
  if (before) range.$lte = before;
  return { [field]: range };
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

/** IssuesFinder#by_due_date (Issue.due_* scopes): dates are calendar days in UTC. */
export function dueDateFilter(value: string | undefined, now: Date): Filter {
  if (value === undefined || value === '') return {};
  const today = isoDay(now);
  switch (value) {
    case '0':
      return { dueDate: null };
    case 'any':
      return { dueDate: { $gte: '' } };
    case 'today':
      return { dueDate: today };
    case 'tomorrow':
      return { dueDate: isoDay(addDays(now, 1)) };
    case 'overdue':
      return { dueDate: { $lt: today } };
    case 'week': {
      // Issue.due_between(Date.current.beginning_of_week, Date.current.end_of_week): Monday to Sunday.
      const monday = addDays(now, -((now.getUTCDay() + 6) % 7));
      return { dueDate: { $gte: isoDay(monday), $lte: isoDay(addDays(monday, 6)) } };
    }
    case 'month': {
      const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
      return { dueDate: { $gte: isoDay(first), $lte: isoDay(last) } };
    }
    default: {
      // next_month_and_previous_two_weeks: from two weeks ago to the end of next month.
      const endOfNextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 2, 0));
      return { dueDate: { $gte: isoDay(addDays(now, -14)), $lte: isoDay(endOfNextMonth) } };
    }
  }
}

/**
 * IssuableFinder#by_my_reaction_emoji: for a signed-in caller, `None` keeps the items they did not award,
 * `Any` those they awarded with any emoji, a name those they awarded with it (`awarded(user, name)`, the
 * name as given). Anonymous callers are not filtered (`return items unless ... current_user`).
 */
export function reactionFilter(value: string | undefined, lookups: FinderLookups): Filter {
  const reacted = lookups.reactedIds;
  if (value === undefined || !reacted) return {};
  if (isNone(value)) return { _id: { $nin: reacted.get(ANY_REACTION) ?? [] } };
  return { _id: { $in: reacted.get(isAny(value) ? ANY_REACTION : value) ?? [] } };
}

/**
 * `weight` (EE IssuesFinder#by_weight): one weight, `None` (no weight) or `Any` (some weight). Issues
 * written before weights existed have no `weight` field, which `null` matches.
 */
export function weightFilter(weight: number | 'None' | 'Any' | undefined): Filter {
  if (weight === undefined) return {};
  if (weight === 'None') return { weight: null };
  if (weight === 'Any') return { weight: { $gte: 0 } };
  return { weight };
}

/** The negated filters (`not[...]`): IssuableFinder#by_negation on the same names. */
export function negatedFilters(not: Query['not'], lookups: FinderLookups): Filter[] {
  if (!not) return [];
  const out: Filter[] = [];
  for (const label of not.labels ?? []) out.push(withoutLabel(label));
  if (not.milestone !== undefined || not.milestone_id !== undefined) {
    out.push(negatedMilestoneFilter(not.milestone_id ?? not.milestone!, lookups));
  }
  if (not.iids && not.iids.length > 0) out.push({ iid: { $nin: not.iids } });
  if (not.author_id !== undefined) out.push({ 'author.id': { $ne: not.author_id } });
  if (not.author_username !== undefined) out.push({ 'author.username': { $ne: not.author_username } });
  if (not.assignee_id !== undefined) out.push(withoutAssignee(not.assignee_id));
  for (const name of not.assignee_username ?? []) {
    const id = lookups.userIds.get(name);
    if (id !== undefined) out.push(withoutAssignee(id));
  }
  if (not.reviewer_id !== undefined) out.push({ reviewerIds: { $ne: not.reviewer_id } });
  if (not.reviewer_username !== undefined) {
    const id = lookups.userIds.get(not.reviewer_username);
    if (id !== undefined) out.push({ reviewerIds: { $ne: id } });
  }
  // not[my_reaction_emoji]: IssuableFinder#by_negated_my_reaction_emoji, `not_awarded(user, name)`.
  if (not.my_reaction_emoji !== undefined && lookups.reactedIds) {
    out.push({ _id: { $nin: lookups.reactedIds.get(not.my_reaction_emoji) ?? [] } });
  }
  return out;
}
