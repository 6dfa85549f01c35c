import type { NotificationEvent, NotificationLevel } from '@gl/contracts';

/** What a user will be notified with on a project once `global` ("defer upwards") is resolved. */
export interface EffectiveLevel {
  level: Exclude<NotificationLevel, 'global'>;
  /** Which setting decided: the project's, an ancestor group's, or the user's global one. */
  source: { kind: 'project' | 'group'; id: number } | { kind: 'global' };
  /** The deciding setting's switches, when the level is `custom`. */
  events?: Partial<Record<NotificationEvent, boolean | null>>;
}

export interface LevelSetting {
  level: NotificationLevel;
  events?: Partial<Record<NotificationEvent, boolean | null>>;
}

export interface EffectiveLevelInput {
  projectId: number;
  /** The project's own setting, or null when the user never set one (GitLab's default: global). */
  project: LevelSetting | null;
  /** Groups above the project, nearest first, with the user's setting for each (null when never set). */
  groups: { id: number; setting: LevelSetting | null }[];
  /** The user's global setting, or null when never set (GitLab's default: participating). */
  global: LevelSetting | null;
}

/** GitLab's default global level ("defaults to Participate"). */
export const DEFAULT_GLOBAL_LEVEL = 'participating';

function decided(
  setting: LevelSetting,
  source: EffectiveLevel['source'],
  level: Exclude<NotificationLevel, 'global'>,
): EffectiveLevel {
  return level === 'custom' ? { level, source, events: setting.events ?? {} } : { level, source };
}

/**
 * Resolves a user's level on a project as GitLab's recipient builder does: the project's setting, else the
 * nearest ancestor group whose setting is not `global`, else the global setting. A global setting that
 * itself says `global` has nothing above it and counts as the default, participating.
 */
export function resolveEffectiveLevel(input: EffectiveLevelInput): EffectiveLevel {
  const project = input.project;
  if (project && project.level !== 'global')
    return decided(project, { kind: 'project', id: input.projectId }, project.level);
  for (const group of input.groups) {
    const setting = group.setting;
    if (setting && setting.level !== 'global')
      return decided(setting, { kind: 'group', id: group.id }, setting.level);
  }
  const global = input.global;
  if (global && global.level !== 'global') return decided(global, { kind: 'global' }, global.level);
  return { level: DEFAULT_GLOBAL_LEVEL, source: { kind: 'global' } };
}
