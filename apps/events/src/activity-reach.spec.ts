import { ACCESS_LEVELS, type Visibility } from '@gl/contracts';
import { canReadTarget, type AccessTarget, type TargetKind, type TargetViewer } from '@gl/service-kit';
import { EVERYONE, readerClass, reachOf, readersOf, readsByReach } from './activity-reach';

const KINDS: TargetKind[] = ['Project', 'Milestone', 'Issue', 'MergeRequest', 'Snippet', 'Epic', 'Code'];
const VISIBILITIES: Visibility[] = ['public', 'internal', 'private'];
const [AUTHOR, ASSIGNEE, OTHER] = [5, 6, 7];

/** Every audience a domain event can carry (and none, as older events), on every kind. */
function targets(): AccessTarget[] {
  const list: AccessTarget[] = [];
  for (const kind of KINDS) {
    list.push({ kind });
    for (const confidential of [undefined, false, true])
      for (const internal of [undefined, true])
        for (const visibility of [undefined, ...VISIBILITIES])
          for (const people of [{}, { authorId: AUTHOR }, { authorId: AUTHOR, assigneeIds: [ASSIGNEE] }])
            list.push({ kind, confidential, internal, visibility, ...people });
  }
  return list;
}

/** Every viewer: anonymous, the author, an assignee, someone else; every level, visibility, admin or not. */
function viewers(): TargetViewer[] {
  const list: TargetViewer[] = [];
  for (const userId of [null, AUTHOR, ASSIGNEE, OTHER])
    for (const accessLevel of Object.values(ACCESS_LEVELS))
      for (const namespaceVisibility of VISIBILITIES)
        for (const isAdmin of userId === null ? [false] : [false, true])
          list.push({ userId, accessLevel: userId === null ? 0 : accessLevel, namespaceVisibility, isAdmin });
  return list;
}

describe('activity reach: who reads an event, stored with it', () => {
  it('When any viewer meets any target, then reach and readers decide exactly as the read rule', () => {
    const mismatches: unknown[] = [];
    const all = viewers();
    for (const target of targets()) {
      const reach = reachOf(target);
      const readers = readersOf(target, reach);
      for (const viewer of all) {
        const expected = canReadTarget(viewer, target);
        const got = readsByReach(readerClass(viewer), viewer.userId, reach, readers);
        if (got !== expected) mismatches.push({ target, viewer, expected });
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it('When nothing restricts a target, then everyone reads it and nobody is named, as without reach', () => {
    expect(reachOf({ kind: 'Issue' })).toBe(EVERYONE);
    expect(readersOf({ kind: 'Issue', authorId: AUTHOR }, EVERYONE)).toBeNull();
    for (const c of [0, 1, 2, 3]) expect(readsByReach(c, OTHER, undefined, undefined)).toBe(true);
  });

  it('When an issue is confidential, then no class reads it but its author and assignees are named', () => {
    const target: AccessTarget = {
      kind: 'Issue',
      confidential: true,
      authorId: AUTHOR,
      assigneeIds: [ASSIGNEE],
    };
    expect(reachOf(target)).toBe(0);
    expect(readersOf(target, 0)).toBe(`,${AUTHOR},${ASSIGNEE},`);
  });
});
