/**
 * A noteable's labels and assignees as words (`labelKeys`, `assigneeKeys`), which the list and column
 * indexes carry, and the filter conditions on them.
 */

/**
 * The key of a label: its name in hex after an `l`, so any name (dots, dollars, `c++`, spaces) is one plain
 * field of `labelSet` and one word of `labelKeys` made of `l` and hex digits only, which no regex reads as
 * anything but itself (labelKeyWords).
 */
export function labelKey(label: string): string {
  return `l${Buffer.from(label, 'utf8').toString('hex')}`;
}

/**
 * The label keys as one string of words, ` <key> <key> ` (a space before and after each): a label is the
 * literal ` <key> ` in it, which the local FerretDB checks on an index entry (patch 0008), where
 * `labelSet.<key>` is read from each document. Issue lists (issuables.finder.ts) and board columns
 * (board-columns.ts) filter on it with the conditions below.
 */
export function labelKeyWords(labels: string[]): string {
  return wordsOf(labels.map(labelKey));
}

/** Keys as one string of words: a space before and after each. */
function wordsOf(keys: string[]): string {
  return ` ${keys.map((key) => `${key} `).join('')}`;
}

type WordCondition<F extends 'labelKeys' | 'assigneeKeys'> = Record<F, Record<string, unknown>>;

/**
 * A literal pattern on the words of `field` (a key has no regex metacharacter), right on MongoDB and
 * answered on the index entry by the local FerretDB; `negated`: the words do not match it.
 */
function wordsMatch<F extends 'labelKeys' | 'assigneeKeys'>(
  field: F,
  pattern: string,
  negated = false,
): WordCondition<F> {
  const condition: Record<string, unknown> = { $regex: pattern };
  const words = {} as WordCondition<F>;
  words[field] = negated ? { $not: condition } : condition;
  return words;
}

type LabelCondition = WordCondition<'labelKeys'>;

/**
 * The label as a condition on `labelKeys`: its key with the spaces around it (which keep `l61` from
 * matching inside `l6162`).
 */
export const withLabel = (label: string): LabelCondition => wordsMatch('labelKeys', ` ${labelKey(label)} `);

/** Without the label: the negated literal pattern (every writer sets `labelKeys`; step 3 filled older ones). */
export const withoutLabel = (label: string): LabelCondition =>
  wordsMatch('labelKeys', ` ${labelKey(label)} `, true);

/** At least one label (`labels=Any`): every key starts a word with `l`, so ` l` is in the words of one. */
export const withSomeLabel = (): LabelCondition => wordsMatch('labelKeys', ' l');

/** No label at all (`labels=None`): no word starts. */
export const withNoLabel = (): LabelCondition => wordsMatch('labelKeys', ' l', true);

/** The conditions of a filter as one flat list: the local database answers a flat `$and` by SQL. */
export function andOf(filter: Record<string, unknown>): Record<string, unknown>[] {
  const keys = Object.keys(filter);
  if (keys.length === 1 && keys[0] === '$and') return filter.$and as Record<string, unknown>[];
  return [filter];
}

/**
 * The label and assignee words every match of `filter` has: the `withLabel` and `withAssignee` conditions
 * among its top-level conditions (a flat or nested `$and`). Conditions under `$or`, `$not` or a negation
 * require nothing. The store reads a filter requiring a rare word among that word's noteables only
 * (noteable-words.store.ts).
 */
export function requiredWords(filter: Record<string, unknown>): string[] {
  const words: string[] = [];
  const visit = (condition: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(condition)) {
      if (key === '$and' && Array.isArray(value)) {
        for (const part of value as Record<string, unknown>[]) visit(part);
        continue;
      }
      if (key !== 'labelKeys' && key !== 'assigneeKeys') continue;
      const ops = value as Record<string, unknown> | null;
      if (typeof ops !== 'object' || ops === null || Object.keys(ops).length !== 1) continue;
      const pattern = ops.$regex;
      // ` <word> `: a label key (l and hex digits) or an assignee (u and digits), spaces around it.
      const word =
        typeof pattern === 'string' ? /^ ((?:l[0-9a-f]+)|(?:u\d+)) $/.exec(pattern)?.[1] : undefined;
      if (word !== undefined) words.push(word);
    }
  };
  visit(filter);
  return [...new Set(words)];
}

/**
 * What a document stores beside `labels`: the label words the list and column filters read, and
 * `labelSet` and `labelCount`, which earlier releases' list filters read (migration step 2 fills them).
 */
export function labelFields(labels: string[]): {
  labelSet: Record<string, true>;
  labelCount: number;
  labelKeys: string;
} {
  return {
    labelSet: Object.fromEntries(labels.map((label) => [labelKey(label), true as const])),
    labelCount: labels.length,
    labelKeys: labelKeyWords(labels),
  };
}

/**
 * The assignees as one string of words, ` u<id> u<id> `, as labelKeyWords does for labels: an assignee is
 * the literal ` u<id> ` in it, which the local FerretDB checks on an index entry (patch 0008), where the
 * array `assigneeIds` is matched by element on each document read. Issue and merge request lists, their
 * read rule (an assignee reads a confidential issue) and board columns filter on it.
 */
export function assigneeKeyWords(ids: readonly number[]): string {
  return wordsOf(ids.map(assigneeKey));
}

/** An assignee's word in `assigneeKeys`: `u` and the user id. */
export function assigneeKey(userId: number): string {
  return `u${userId}`;
}

type AssigneeCondition = WordCondition<'assigneeKeys'>;

/** Assigned to the user: a literal pattern (digits only; the spaces keep `u5` from matching `u55`). */
export const withAssignee = (id: number): AssigneeCondition =>
  wordsMatch('assigneeKeys', ` ${assigneeKey(id)} `);

/** Not assigned to the user (every writer sets `assigneeKeys`; migration step 5 filled older ones). */
export const withoutAssignee = (id: number): AssigneeCondition =>
  wordsMatch('assigneeKeys', ` ${assigneeKey(id)} `, true);

/** Assigned to anyone (`assignee_id=Any`): every word starts with `u`. */
export const withSomeAssignee = (): AssigneeCondition => wordsMatch('assigneeKeys', ' u');

/** Assigned to no one (`assignee_id=None`). */
export const withNoAssignee = (): AssigneeCondition => wordsMatch('assigneeKeys', ' u', true);

/**
 * What a document stores beside the fields it is derived from, for the filters above: the label fields
 * when `labels` is given, the assignee words when `assigneeIds` is.
 */
export function derivedFields(doc: { labels?: unknown; assigneeIds?: unknown }): Record<string, unknown> {
  return {
    ...(Array.isArray(doc.labels) && labelFields(doc.labels as string[])),
    ...(Array.isArray(doc.assigneeIds) && { assigneeKeys: assigneeKeyWords(doc.assigneeIds as number[]) }),
  };
}
