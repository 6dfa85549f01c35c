import { ACCESS_LEVELS } from '@gl/contracts';
import {
  canReadNamespace,
  canReadTarget,
  seesEveryTarget,
  type AccessTarget,
  type TargetViewer,
} from '@gl/service-kit';

/**
 * Who reads an activity event, stored with it so a list's visibility is part of its index query rather than
 * a check of each event in memory (which had every list walk up to 10,000 events to count its total).
 *
 * Below Reporter (who, like an administrator, reads every target) the read rule (`canReadTarget`) only
 * tells four kinds of readers of a project or group apart, and within each only by whether the reader is
 * the target's author or an assignee. So an event stores `reach`, the readers it is shown to whoever they
 * are (one bit per class below), and `readers`, the users its audience names who read it where their class
 * alone does not (`,5,9,`: matched by a substring query the database answers from the field itself). Both
 * are computed by asking `canReadTarget` itself, never restated; activity-reach.spec.ts checks the
 * equivalence for every class and target. An event without `reach` is read by every class (EVERYONE): most
 * events are, so events stored before reach existed keep that meaning without being rewritten.
 */

/** A signed-in user who is nobody's author or assignee. */
const NOBODY = -1;

/** The readers below Reporter whom the read rule tells apart, one bit each (bit i = READER_CLASSES[i]). */
export const READER_CLASSES: readonly TargetViewer[] = [
  // Anonymous, on a public project or group.
  { userId: null, isAdmin: false, accessLevel: ACCESS_LEVELS.none, namespaceVisibility: 'public' },
  // Signed in, not a member: public or internal.
  { userId: NOBODY, isAdmin: false, accessLevel: ACCESS_LEVELS.none, namespaceVisibility: 'public' },
  // A Guest of a public or internal one.
  { userId: NOBODY, isAdmin: false, accessLevel: ACCESS_LEVELS.guest, namespaceVisibility: 'public' },
  // A Guest of a private one.
  { userId: NOBODY, isAdmin: false, accessLevel: ACCESS_LEVELS.guest, namespaceVisibility: 'private' },
];

/** Every class reads it (also what an event without `reach` means). */
export const EVERYONE = (1 << READER_CLASSES.length) - 1;

/** The classes that read the target whoever they are, as a bit set. */
export function reachOf(target: AccessTarget): number {
  let reach = 0;
  READER_CLASSES.forEach((viewer, i) => {
    if (canReadTarget(viewer, target)) reach |= 1 << i;
  });
  return reach;
}

/**
 * The users the target's audience names (author, assignees) who read it in every signed-in class whose bit
 * `reach` lacks; null when nobody gains anything by name.
 */
export function readersOf(target: AccessTarget, reach: number): string | null {
  const lacking = READER_CLASSES.filter((viewer, i) => viewer.userId !== null && !(reach & (1 << i)));
  if (lacking.length === 0) return null;
  const named = [...new Set([target.authorId, ...(target.assigneeIds ?? [])])].filter(
    (id): id is number => id !== undefined,
  );
  const readers = named.filter((userId) =>
    lacking.every((viewer) => canReadTarget({ ...viewer, userId }, target)),
  );
  return readers.length > 0 ? `,${readers.join(',')},` : null;
}

/** How a viewer reads a project's or group's events: all of them, none, or by reach. */
export type ReaderClass = 'all' | 'none' | number;

/** The class of a viewer on one project or group (an index into READER_CLASSES, or all or none). */
export function readerClass(viewer: TargetViewer): ReaderClass {
  if (!canReadNamespace(viewer)) return 'none';
  if (seesEveryTarget(viewer)) return 'all';
  if (viewer.userId === null) return 0;
  if (viewer.accessLevel < ACCESS_LEVELS.guest) return 1;
  return viewer.namespaceVisibility === 'private' ? 3 : 2;
}

/** The `reach` values that include class `c`, for an `$in`: null stands for an event without one. */
export function reachValuesOf(c: number): (number | null)[] {
  const values: (number | null)[] = [null];
  for (let reach = 0; reach <= EVERYONE; reach++) if (reach & (1 << c)) values.push(reach);
  return values;
}

/** The condition that selects the events a reader of class `c` (user `userId`) reads: as branches of $or. */
export function reachBranches(
  c: number,
  userId: number | null,
): ({ reach: { $in: (number | null)[] } } | { readers: { $regex: string } })[] {
  const branches: ({ reach: { $in: (number | null)[] } } | { readers: { $regex: string } })[] = [
    { reach: { $in: reachValuesOf(c) } },
  ];
  // A user's own targets: a literal pattern (no metacharacter), which the database matches as a substring.
  if (userId !== null && READER_CLASSES[c]!.userId !== null)
    branches.push({ readers: { $regex: `,${userId},` } });
  return branches;
}

/** What the query built by reachBranches selects, as a check of one event (the spec holds it to the rule). */
export function readsByReach(
  c: ReaderClass,
  userId: number | null,
  reach: number | undefined,
  readers: string | null | undefined,
): boolean {
  if (c === 'all' || c === 'none') return c === 'all';
  if ((reach ?? EVERYONE) & (1 << c)) return true;
  return userId !== null && READER_CLASSES[c]!.userId !== null && !!readers?.includes(`,${userId},`);
}
