import {
  anchoredRegexp,
  regexpError,
  selectTagsToDelete,
  type CleanupCandidate,
  type CleanupRules,
} from './selection';

const NOW = new Date('2026-01-31T12:00:00.000Z');
const daysAgo = (days: number): Date => new Date(NOW.getTime() - days * 86_400_000);
const tag = (name: string, ageDays: number | null): CleanupCandidate => ({
  name,
  createdAt: ageDays === null ? null : daysAgo(ageDays),
});
const rules = (overrides: Partial<CleanupRules> = {}): CleanupRules => ({
  nameRegexDelete: '.*',
  nameRegexKeep: null,
  keepN: null,
  olderThan: null,
  ...overrides,
});
const sorted = (names: string[]): string[] => [...names].sort();

const TAGS = [
  tag('latest', 100),
  tag('v1.0', 40),
  tag('v1.1', 30),
  tag('v2.0', 10),
  tag('v2.1', 2),
  tag('dev-a', 20),
  tag('dev-b', 1),
  tag('stable', 50),
];

describe('selectTagsToDelete', () => {
  it('When name_regex_delete is .*, then every tag but latest is deleted', () => {
    const s = selectTagsToDelete(TAGS, rules(), NOW);
    expect(sorted(s.toDelete)).toEqual(sorted(TAGS.map((t) => t.name).filter((n) => n !== 'latest')));
    expect(s).toMatchObject({ matched: 7, kept: 0, truncated: false, error: null });
  });

  it('When the delete expression names latest explicitly, then latest still stays', () => {
    const s = selectTagsToDelete(TAGS, rules({ nameRegexDelete: 'latest' }), NOW);
    expect(s.toDelete).toEqual([]);
    expect(s.matched).toBe(0);
  });

  it('When the expression matches only part of a name, then the tag is not deleted (anchored \\A…\\z)', () => {
    const s = selectTagsToDelete(TAGS, rules({ nameRegexDelete: 'v1' }), NOW);
    expect(s.toDelete).toEqual([]);
    const t = selectTagsToDelete(TAGS, rules({ nameRegexDelete: 'v1.*' }), NOW);
    expect(sorted(t.toDelete)).toEqual(['v1.0', 'v1.1']);
  });

  it('When an alternation is given, then the anchors apply to the whole alternation', () => {
    const s = selectTagsToDelete(TAGS, rules({ nameRegexDelete: 'dev-a|stable' }), NOW);
    expect(sorted(s.toDelete)).toEqual(['dev-a', 'stable']);
  });

  it('When name_regex_keep matches, then it overrides the delete expression', () => {
    const s = selectTagsToDelete(TAGS, rules({ nameRegexKeep: 'v2.*' }), NOW);
    expect(sorted(s.toDelete)).toEqual(['dev-a', 'dev-b', 'stable', 'v1.0', 'v1.1']);
    expect(s).toMatchObject({ matched: 7, kept: 2 });
  });

  it('When name_regex_keep is .*, then nothing is deleted', () => {
    expect(selectTagsToDelete(TAGS, rules({ nameRegexKeep: '.*' }), NOW).toDelete).toEqual([]);
  });

  it('When keep_n is given, then the N newest matching tags by creation time stay', () => {
    const s = selectTagsToDelete(TAGS, rules({ nameRegexDelete: 'v.*', keepN: 2 }), NOW);
    expect(sorted(s.toDelete)).toEqual(['v1.0', 'v1.1']);
    expect(s).toMatchObject({ matched: 4, kept: 2 });
  });

  it('When keep_n is larger than the matches, then nothing is deleted', () => {
    expect(selectTagsToDelete(TAGS, rules({ keepN: 50 }), NOW).toDelete).toEqual([]);
  });

  it('When keep_n is 0, then no tag is kept by count', () => {
    expect(selectTagsToDelete(TAGS, rules({ keepN: 0 }), NOW).toDelete).toHaveLength(7);
  });

  it('When keep_n is used, then creation time decides, not name or push order', () => {
    const tags = [tag('a', 1), tag('b', 5), tag('c', 3)];
    expect(selectTagsToDelete(tags, rules({ keepN: 1 }), NOW).toDelete).toEqual(['b', 'c']);
  });

  it('When a tag has no creation time, then keep_n counts it as newest', () => {
    const tags = [tag('old', 10), tag('unknown', null), tag('new', 1)];
    expect(selectTagsToDelete(tags, rules({ keepN: 1 }), NOW).toDelete).toEqual(['old', 'new']);
  });

  it('When older_than is given, then only tags created before now − span are deleted', () => {
    const s = selectTagsToDelete(TAGS, rules({ olderThan: '15d' }), NOW);
    expect(sorted(s.toDelete)).toEqual(['dev-a', 'stable', 'v1.0', 'v1.1']);
  });

  it('When older_than uses m, then it means minutes', () => {
    const tags = [tag('a', 0.005), tag('b', 1)];
    expect(selectTagsToDelete(tags, rules({ olderThan: '10m' }), NOW).toDelete).toEqual(['b']);
    expect(selectTagsToDelete(tags, rules({ olderThan: '1month' }), NOW).toDelete).toEqual([]);
  });

  it('When older_than cannot be parsed, then nothing is deleted and the reason is given', () => {
    const s = selectTagsToDelete(TAGS, rules({ olderThan: 'soon' }), NOW);
    expect(s).toMatchObject({ toDelete: [], error: 'invalid older_than', matched: 7, kept: 7 });
  });

  it('When a tag has no creation time, then older_than keeps it', () => {
    const tags = [tag('unknown', null), tag('old', 10)];
    expect(selectTagsToDelete(tags, rules({ olderThan: '1d' }), NOW).toDelete).toEqual(['old']);
  });

  it('When keep_n and older_than combine, then keep_n applies first and older_than filters the rest', () => {
    const s = selectTagsToDelete(TAGS, rules({ nameRegexDelete: 'v.*', keepN: 1, olderThan: '20d' }), NOW);
    // newest v2.1 kept by count; v2.0 (10d) too young; v1.0 and v1.1 old enough.
    expect(sorted(s.toDelete)).toEqual(['v1.0', 'v1.1']);
    expect(s).toMatchObject({ matched: 4, kept: 2 });
  });

  it('When keep regex, keep_n and older_than combine, then each narrows the deletion', () => {
    const s = selectTagsToDelete(
      TAGS,
      rules({ nameRegexDelete: '.*', nameRegexKeep: 'stable', keepN: 2, olderThan: '25d' }),
      NOW,
    );
    // candidates without stable/latest, newest two (dev-b 1d, v2.1 2d) kept, then older than 25d: v1.0, v1.1.
    expect(sorted(s.toDelete)).toEqual(['v1.0', 'v1.1']);
  });

  it('When a per-run cap is set, then the oldest tags go first and the rest waits', () => {
    const s = selectTagsToDelete(TAGS, rules(), NOW, 3);
    expect(s.toDelete).toEqual(['stable', 'v1.0', 'v1.1']);
    expect(s).toMatchObject({ truncated: true, matched: 7, kept: 4 });
  });

  it('When an expression is not valid RE2, then nothing is deleted', () => {
    expect(selectTagsToDelete(TAGS, rules({ nameRegexDelete: '(a' }), NOW)).toMatchObject({
      toDelete: [],
      error: 'invalid regex',
    });
  });

  it('When there are no tags, then nothing is selected', () => {
    expect(selectTagsToDelete([], rules(), NOW)).toEqual({
      matched: 0,
      kept: 0,
      toDelete: [],
      truncated: false,
      error: null,
    });
  });
});

describe('regexpError and anchoredRegexp', () => {
  it('When the expression is valid, then there is no error', () => {
    expect(regexpError('v[0-9]+\\..*')).toBeNull();
  });

  it.each([
    ['*v10.', 'no argument for repetition operator: *'],
    ['(a', 'missing ): (a'],
    ['a(?=b)', 'invalid perl operator: (?='],
  ])('When the expression is %p, then RE2 explains %p', (source, reason) => {
    expect(regexpError(source)).toBe(reason);
  });

  it('When anchored, then only whole names match', () => {
    const re = anchoredRegexp('v.');
    expect(re.test('v1')).toBe(true);
    expect(re.test('v12')).toBe(false);
    expect(re.test('xv1')).toBe(false);
  });
});

/**
 * Parameters GitLab accepts with 202 (lib/api/project_container_repositories.rb declares keep_n an Integer
 * and older_than a String with no other check) and what its cleanup then does with them
 * (app/services/projects/container_repository/cleanup_tags_base_service.rb): this selection must do the same.
 */
describe('selectTagsToDelete with the values GitLab accepts unchecked', () => {
  it('When keep_n is negative, then nothing is kept (partition_by_keep_n: index >= keep_n)', () => {
    const s = selectTagsToDelete(TAGS, rules({ keepN: -1 }), NOW);
    expect(s.toDelete).toHaveLength(7);
    expect(s.error).toBeNull();
  });

  it('When name_regex_delete is empty, then it is \\A\\z and matches no tag', () => {
    const s = selectTagsToDelete(TAGS, rules({ nameRegexDelete: '' }), NOW);
    expect(s).toMatchObject({ matched: 0, toDelete: [], error: null });
  });

  it('When older_than is -1d, then it is one day (ChronicDuration drops the minus sign)', () => {
    const s = selectTagsToDelete(TAGS, rules({ olderThan: '-1d' }), NOW);
    expect(s.toDelete).toEqual(selectTagsToDelete(TAGS, rules({ olderThan: '1d' }), NOW).toDelete);
    expect(s.toDelete).toHaveLength(6);
  });

  it('When older_than is not a duration, then nothing is deleted (GitLab: nil.seconds fails the job)', () => {
    const s = selectTagsToDelete(TAGS, rules({ olderThan: 'bogus' }), NOW);
    expect(s).toMatchObject({ toDelete: [], error: 'invalid older_than' });
  });
});
