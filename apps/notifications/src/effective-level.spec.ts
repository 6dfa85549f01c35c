import { resolveEffectiveLevel, type EffectiveLevelInput } from './effective-level';

const input = (overrides: Partial<EffectiveLevelInput> = {}): EffectiveLevelInput => ({
  projectId: 7,
  project: null,
  groups: [],
  global: null,
  ...overrides,
});

describe('effective notification level', () => {
  it('When nothing was ever set, then the global default participating applies', () => {
    expect(resolveEffectiveLevel(input())).toEqual({ level: 'participating', source: { kind: 'global' } });
  });

  it("When the project has a level other than global, then the project's level wins", () => {
    const result = resolveEffectiveLevel(
      input({
        project: { level: 'watch' },
        groups: [{ id: 3, setting: { level: 'disabled' } }],
        global: { level: 'mention' },
      }),
    );
    expect(result).toEqual({ level: 'watch', source: { kind: 'project', id: 7 } });
  });

  it('When the project says global, then the nearest ancestor group that does not say global decides', () => {
    const result = resolveEffectiveLevel(
      input({
        project: { level: 'global' },
        groups: [
          { id: 3, setting: { level: 'global' } },
          { id: 2, setting: null },
          { id: 1, setting: { level: 'disabled' } },
          { id: 0, setting: { level: 'watch' } },
        ],
        global: { level: 'mention' },
      }),
    );
    expect(result).toEqual({ level: 'disabled', source: { kind: 'group', id: 1 } });
  });

  it('When the project and every group say global, then the global setting decides', () => {
    const result = resolveEffectiveLevel(
      input({
        groups: [{ id: 1, setting: { level: 'global' } }],
        global: { level: 'mention' },
      }),
    );
    expect(result).toEqual({ level: 'mention', source: { kind: 'global' } });
  });

  it('When the global setting itself says global, then it counts as participating', () => {
    expect(resolveEffectiveLevel(input({ global: { level: 'global' } })).level).toBe('participating');
  });

  it('When the deciding setting is custom, then its switches come with it', () => {
    const result = resolveEffectiveLevel(
      input({
        project: { level: 'global' },
        groups: [{ id: 1, setting: { level: 'custom', events: { new_issue: true } } }],
        global: { level: 'custom', events: { new_note: true } },
      }),
    );
    expect(result).toEqual({
      level: 'custom',
      source: { kind: 'group', id: 1 },
      events: { new_issue: true },
    });
  });
});
