import { positionScopeOfProject, rootScopeOf } from './root-scope';

describe('root-scope', () => {
  const inRoot = (n: number, root: number, rootProjectCount?: number) =>
    Array.from({ length: n }, () => ({ ancestorGroupIds: [root, 99], rootProjectCount }));

  it('When a project is in a group, then its scope is its root group, else the project itself', () => {
    expect(positionScopeOfProject(5, 3)).toBe('g3');
    expect(positionScopeOfProject(5, null)).toBe('p5');
  });

  it('When a list holds at least a quarter of one root and eight projects, then it reads by the root scope', () => {
    expect(rootScopeOf('Issue', inRoot(8, 3, 32))).toBe('g3');
    expect(rootScopeOf('Issue', inRoot(100, 3, 100))).toBe('g3');
  });

  it('When a list is small, a sliver of its root, of several roots, unsized, or of merge requests, then it does not', () => {
    expect(rootScopeOf('Issue', inRoot(7, 3, 7))).toBeNull();
    expect(rootScopeOf('Issue', inRoot(8, 3, 33))).toBeNull();
    expect(rootScopeOf('Issue', [...inRoot(8, 3, 10), ...inRoot(1, 4, 10)])).toBeNull();
    expect(rootScopeOf('Issue', inRoot(8, 3))).toBeNull();
    expect(
      rootScopeOf(
        'Issue',
        Array.from({ length: 9 }, () => ({ ancestorGroupIds: [] })),
      ),
    ).toBeNull();
    expect(rootScopeOf('MergeRequest', inRoot(8, 3, 8))).toBeNull();
  });
});
