import type { z } from 'zod';
import type { NamespaceContext, createIterationBody, listIterationsQuery } from '@gl/contracts';
import { ModelError, NotFoundError, type PageRequest } from '@gl/service-kit';
import { boardGroups, groupAndAncestors } from '../boards/boards.access';
import type { CadenceSpan, IterationDoc } from '../boards.models';
import type { IterationConditions, IterationScope, IterationsStore } from './iterations.store';
import { containsText } from '../common/text-search';

export type IterationState = 'upcoming' | 'current' | 'closed';

/** An iteration with its place in its cadence (`sequence`, 1 for the earliest). */
export type SequencedIteration = IterationDoc & { sequence: number };

const FUTURE_LIMIT_YEARS = 500;

/** Today as GitLab's Date.today compares iteration dates with it (UTC here). */
export function today(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Iteration.compute_state: upcoming before its start, closed after its due date, else current. */
export function iterationState(
  doc: Pick<IterationDoc, 'startDate' | 'dueDate'>,
  day = today(),
): IterationState {
  if (doc.startDate > day) return 'upcoming';
  if (doc.dueDate < day) return 'closed';
  return 'current';
}

/** The dates that make up a `state` filter (Iteration.filter_by_state; `started` is the old `current`). */
function stateDates(state: string | undefined, day: string): IterationConditions['dates'] {
  switch (state) {
    case 'upcoming':
      return [{ startDate: { $gt: day } }];
    case 'current':
    case 'started':
      return [{ startDate: { $lte: day }, dueDate: { $gte: day } }];
    case 'closed':
      return [{ dueDate: { $lt: day } }];
    case 'opened':
      // Upcoming and current: an iteration not yet past its due date (its start is never after it).
      return [{ dueDate: { $gte: day } }];
    default:
      return undefined;
  }
}

/** Gitlab::SQL::Pattern's fuzzy terms: each word (or "quoted phrase") must be part of the text. */
function searchWords(search: string): ReturnType<typeof containsText>[] {
  const words: string[] = [];
  const rest = search.replace(/"([^"]+)"/g, (_, phrase: string) => {
    words.push(phrase);
    return ' ';
  });
  words.push(...rest.split(/\s+/).filter(Boolean));
  return words.map(containsText);
}

function yearsFromNow(years: number, now = new Date()): string {
  const later = new Date(now);
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return today(later);
}

/**
 * Group iterations: GitLab's list (ee/lib/api/iterations.rb over IterationsFinder) and our creation call,
 * with Iteration's validations (ee/app/models/iteration.rb and the Timebox concern).
 */
export function createIterationsService(store: IterationsStore) {
  /**
   * Each iteration's sequence: its rank by start date among its cadence's iterations (Iterations::Cadence
   * #update_iteration_sequences numbers them so after every change).
   */
  async function sequenced(docs: IterationDoc[]): Promise<SequencedIteration[]> {
    if (docs.length === 0) return [];
    const latest = docs.reduce((max, d) => (d.startDate > max ? d.startDate : max), docs[0]!.startDate);
    const earlier = await store.startsBefore([...new Set(docs.map((d) => d.cadenceId))], latest);
    return docs.map((doc) => ({
      ...doc,
      sequence:
        1 + earlier.filter((e) => e.cadenceId === doc.cadenceId && e.startDate < doc.startDate).length,
    }));
  }

  /**
   * IterationsFinder with the API's defaults (ancestors included, descendants not). Descendants are read
   * only for members, whose membership reaches every subgroup: the service cannot tell which subgroups
   * others may read.
   */
  async function page(
    ns: NamespaceContext,
    query: z.infer<typeof listIterationsQuery>,
    page: PageRequest,
    member: boolean,
  ): Promise<{ total: number; docs: SequencedIteration[] }> {
    const withAncestors = query.include_ancestors ?? true;
    const scope: IterationScope = { groupIds: withAncestors ? groupAndAncestors(ns) : [ns.id] };
    if (query.include_descendants && member) {
      scope.descendantsOf = { groupId: ns.id, rootGroupId: ns.ancestorGroupIds[0] ?? ns.id };
    }
    const conditions: IterationConditions = {
      dates: stateDates(query.state, today()),
      updatedBefore: query.updated_before,
      updatedAfter: query.updated_after,
    };
    const words = query.search ? searchWords(query.search) : [];
    if (words.length > 0) {
      const fields = query.in ?? ['title'];
      if (fields.includes('title')) conditions.titleWords = words;
      if (fields.includes('cadence_title')) {
        conditions.cadenceIds = await store.cadenceIdsMatching(await store.cadenceIdsIn(scope), words);
      }
    }
    const found = await store.page(scope, conditions, page);
    return { total: found.total, docs: await sequenced(found.docs) };
  }

  /**
   * Iterations::CreateService: in the given cadence of the group, else in the group's manual cadence
   * (made on first use). Every broken validation in one 400, as render_validation_error! shows them.
   */
  async function create(
    ns: NamespaceContext,
    params: z.infer<typeof createIterationBody>,
  ): Promise<SequencedIteration> {
    const title = params.title?.trim() ? params.title.trim() : null;
    const { start_date: startDate, due_date: dueDate } = params;
    const errors: Record<string, string[]> = {};
    const add = (attribute: string, message: string): void => {
      (errors[attribute] ??= []).push(message);
    };
    // Timebox#start_date_should_be_less_than_due_date, then Iteration#future_date.
    if (dueDate <= startDate) add('due_date', 'must be greater than start date');
    const limit = yearsFromNow(FUTURE_LIMIT_YEARS);
    if (startDate > limit) add('start_date', 'cannot be more than 500 years in the future');
    if (dueDate > limit) add('due_date', 'cannot be more than 500 years in the future');
    if (Object.keys(errors).length > 0) throw ModelError.fields(errors);

    const cadence =
      params.iteration_cadence_id === undefined
        ? await store.ensureManualCadence(ns.id, { title: `${ns.name} Iterations`, startDate })
        : await store.findCadence(ns.id, params.iteration_cadence_id);
    if (!cadence) throw new NotFoundError('Iteration Cadence');

    const { _id, iid } = await store.allocate(ns.id);
    const span: CadenceSpan = { id: _id, startDate, dueDate, title };
    const spans = await store.reserveSpan(cadence._id, span, (current) => {
      // Iteration#dates_do_not_overlap (within_timeframe: a shared day overlaps), #uniqueness_of_title.
      if (current.some((s) => s.startDate <= dueDate && s.dueDate >= startDate)) {
        add('base', 'Dates cannot overlap with other existing Iterations within this iterations cadence');
      }
      if (title !== null && current.some((s) => s.title === title)) {
        add('title', 'already being used for another iteration within this cadence.');
      }
      if (Object.keys(errors).length > 0) throw ModelError.fields(errors);
    });
    const groupPath = [...ns.ancestorGroupIds, ns.id];
    const now = new Date();
    const doc: IterationDoc = {
      _id,
      groupId: ns.id,
      groupPath,
      rootGroupId: groupPath[0]!,
      groupFullPath: ns.fullPath,
      iid,
      cadenceId: cadence._id,
      title,
      untitled: title === null,
      description: params.description ?? null,
      startDate,
      dueDate,
      createdAt: now,
      updatedAt: now,
    };
    await store.insert(doc);
    return { ...doc, sequence: 1 + spans.filter((s) => s.startDate < startDate).length };
  }

  /**
   * An iteration of the board parent's groups (a group and its ancestors, a project's group and its
   * ancestors), any state (Boards::Lists::CreateService#find_iteration).
   */
  async function usable(ns: NamespaceContext, id: number): Promise<IterationDoc | null> {
    return store.findIn(id, boardGroups(ns));
  }

  return { page, create, usable, sequenced };
}

export type IterationsService = ReturnType<typeof createIterationsService>;
