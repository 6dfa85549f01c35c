import type { FilterQuery, Model } from 'mongoose';
import { ModelError, findPage, isDuplicateKeyError, type Counters, type PageRequest } from '@gl/service-kit';
import type { CadenceDoc, CadenceSpan, IterationDoc } from '../boards.models';
import type { containsText } from '../common/text-search';

type TextCondition = ReturnType<typeof containsText>;

const MAX_CAS_ATTEMPTS = 50;

/** Which groups' iterations a query reads (IterationsFinder#groups). */
export interface IterationScope {
  /** The group and its ancestors, or the group alone. */
  groupIds: number[];
  /** With the group's descendants: every iteration whose group path holds `groupId` under `rootGroupId`. */
  descendantsOf?: { groupId: number; rootGroupId: number };
}

/** Mongo conditions of the list filters; the service turns GitLab's parameters into these. */
export interface IterationConditions {
  /** Date ranges that make up the asked states (upcoming, current, closed follow from the dates). */
  dates?: FilterQuery<IterationDoc>[];
  /** Every word must be part of the title (or of the cadence's title, when those cadences are given). */
  titleWords?: TextCondition[];
  cadenceIds?: number[];
  updatedBefore?: Date;
  updatedAfter?: Date;
}

/** Group iterations and their cadences. */
export function createIterationsStore(
  iterations: Model<IterationDoc>,
  cadences: Model<CadenceDoc>,
  counters: Counters,
) {
  function scopeFilter(scope: IterationScope): FilterQuery<IterationDoc> {
    const own: FilterQuery<IterationDoc> = { groupId: { $in: scope.groupIds } };
    if (!scope.descendantsOf) return own;
    const { groupId, rootGroupId } = scope.descendantsOf;
    return { rootGroupId, $or: [own, { groupPath: groupId }] };
  }

  /**
   * IterationsFinder#order: due date, then title, then id. PostgreSQL sorts a missing title after the
   * others, MongoDB before them: `untitled` puts them back after.
   */
  async function page(
    scope: IterationScope,
    conditions: IterationConditions,
    page: PageRequest,
  ): Promise<{ total: number; docs: IterationDoc[] }> {
    const and: FilterQuery<IterationDoc>[] = [scopeFilter(scope)];
    if (conditions.dates)
      and.push(conditions.dates.length === 1 ? conditions.dates[0]! : { $or: conditions.dates });
    if (conditions.titleWords || conditions.cadenceIds) {
      const matches: FilterQuery<IterationDoc>[] = [];
      if (conditions.titleWords)
        matches.push({ $and: conditions.titleWords.map((word) => ({ title: word })) });
      if (conditions.cadenceIds) matches.push({ cadenceId: { $in: conditions.cadenceIds } });
      and.push(matches.length === 1 ? matches[0]! : { $or: matches });
    }
    if (conditions.updatedBefore) and.push({ updatedAt: { $lte: conditions.updatedBefore } });
    if (conditions.updatedAfter) and.push({ updatedAt: { $gte: conditions.updatedAfter } });
    return findPage(iterations, { $and: and }, { dueDate: 1, untitled: 1, title: 1, _id: 1 }, page);
  }

  /** An iteration of one of these groups (any state), for board lists. */
  async function findIn(id: number, groupIds: number[]): Promise<IterationDoc | null> {
    return iterations.findOne({ _id: id, groupId: { $in: groupIds } }).lean<IterationDoc>();
  }

  async function byIds(ids: number[]): Promise<IterationDoc[]> {
    return ids.length ? iterations.find({ _id: { $in: ids } }).lean<IterationDoc[]>() : [];
  }

  /**
   * The start dates of the cadences' iterations that start before `before`: what the sequences of a page
   * need. Read from the iterations (small documents, by index), not from the cadence's spans: decoding a
   * cadence of 200 spans for every page cost more than the page itself.
   */
  async function startsBefore(
    cadenceIds: number[],
    before: string,
  ): Promise<Pick<IterationDoc, 'cadenceId' | 'startDate'>[]> {
    if (cadenceIds.length === 0) return [];
    return iterations
      .find({ cadenceId: { $in: cadenceIds }, startDate: { $lt: before } })
      .select({ _id: 0, cadenceId: 1, startDate: 1 })
      .lean<Pick<IterationDoc, 'cadenceId' | 'startDate'>[]>();
  }

  /** The cadences the iterations in scope belong to. */
  async function cadenceIdsIn(scope: IterationScope): Promise<number[]> {
    const found = await iterations
      .find(scopeFilter(scope))
      .select({ cadenceId: 1 })
      .lean<{ cadenceId: number }[]>();
    return [...new Set(found.map((i) => i.cadenceId))];
  }

  /** Those of these cadences whose title holds every word (Iterations::Cadence.search_title). */
  async function cadenceIdsMatching(ids: number[], words: TextCondition[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const found = await cadences
      .find({ _id: { $in: ids }, $and: words.map((word) => ({ title: word })) })
      .select({ _id: 1 })
      .lean<{ _id: number }[]>();
    return found.map((c) => c._id);
  }

  async function findCadence(groupId: number, id: number): Promise<CadenceDoc | null> {
    return cadences.findOne({ _id: id, groupId }).lean<CadenceDoc>();
  }

  /**
   * The group's manual cadence (Iteration#find_or_create_default_cadence), made on first use by any
   * number of callers at once: the unique slot lets only the first insert in.
   */
  async function ensureManualCadence(
    groupId: number,
    fields: Pick<CadenceDoc, 'title' | 'startDate'>,
  ): Promise<CadenceDoc> {
    const slot = `manual:${groupId}`;
    const existing = await cadences.findOne({ slot }).lean<CadenceDoc>();
    if (existing) return existing;
    const doc: CadenceDoc = {
      _id: await counters.next('iteration-cadence'),
      groupId,
      slot,
      ...fields,
      automatic: false,
      durationInWeeks: 2,
      iterationsInAdvance: 2,
      active: true,
      spans: [],
      version: 0,
      createdAt: new Date(),
    };
    try {
      await cadences.create(doc);
      return doc;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const winner = await cadences.findOne({ slot }).lean<CadenceDoc>();
      if (!winner) throw err;
      return winner;
    }
  }

  /**
   * Adds a span to the cadence if `check` accepts the cadence's current spans (it throws to refuse) and
   * nobody changed them meanwhile; retries on a lost race, so two overlapping iterations never both get in.
   */
  async function reserveSpan(
    cadenceId: number,
    span: CadenceSpan,
    check: (spans: CadenceSpan[]) => void,
  ): Promise<CadenceSpan[]> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const current = await cadences
        .findOne({ _id: cadenceId })
        .select({ spans: 1, version: 1 })
        .lean<Pick<CadenceDoc, '_id' | 'spans' | 'version'>>();
      if (!current) throw ModelError.fields({ iterations_cadence: ["can't be blank"] });
      check(current.spans);
      const spans = [...current.spans, span];
      const written = await cadences.updateOne(
        { _id: cadenceId, version: current.version },
        { $set: { spans, version: current.version + 1 } },
      );
      if (written.modifiedCount === 1) return spans;
    }
    throw ModelError.error('Iteration could not be saved!', 409);
  }

  /** A new iteration's id and its iid within the group (has_internal_id :iid, scope: :group). */
  async function allocate(groupId: number): Promise<Pick<IterationDoc, '_id' | 'iid'>> {
    return {
      _id: await counters.next('iteration'),
      iid: await counters.next(`iteration-iid:${groupId}`),
    };
  }

  async function insert(doc: IterationDoc): Promise<void> {
    await iterations.create(doc);
  }

  return {
    page,
    findIn,
    byIds,
    startsBefore,
    cadenceIdsIn,
    cadenceIdsMatching,
    findCadence,
    ensureManualCadence,
    reserveSpan,
    allocate,
    insert,
  };
}

export type IterationsStore = ReturnType<typeof createIterationsStore>;
