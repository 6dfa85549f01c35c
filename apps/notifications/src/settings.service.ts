import {
  HIGHER_TIER_NOTIFICATION_EVENTS,
  NOTIFICATION_EVENTS,
  NOTIFICATION_LEVELS,
  type GlobalNotificationSettingEntity,
  type NotificationEvent,
  type NotificationLevel,
  type NotificationSettingEntity,
  type Principal,
  type UpdateGlobalNotificationSettingParams,
  type UpdateNotificationSettingParams,
} from '@gl/contracts';
import { HttpError, ModelError } from '@gl/service-kit';
import { resolveEffectiveLevel, type EffectiveLevel, type LevelSetting } from './effective-level';
import type { SettingDoc, SourceType } from './models';
import type { IdentityStore } from './identity.store';
import { settingId, type SettingsStore } from './settings.store';

/** GitLab's defaults: the global setting starts at participating, group and project ones at global. */
const DEFAULT_LEVEL: Record<SourceType, NotificationLevel> = {
  global: 'participating',
  group: 'global',
  project: 'global',
};

/** Column defaults: `moved_project` is `default: true, null: false`; the other switches start as null. */
function defaultSwitch(event: NotificationEvent): boolean | null {
  return event === 'moved_project' ? true : null;
}

/** Devise's e-mail format, which GitLab's `devise_email` validator applies. */
const EMAIL_FORMAT = /^[^@\s]+@[^@\s]+$/;

/**
 * The switches a source has (GitLab's `email_events(source)`): EE adds `new_epic` to groups and to the
 * global setting; projects never have it, and the free tier has no higher-tier switch at all.
 */
export function eventsFor(sourceType: SourceType, higherTier: boolean): NotificationEvent[] {
  return NOTIFICATION_EVENTS.filter(
    (e) => !HIGHER_TIER_NOTIFICATION_EVENTS.includes(e) || (higherTier && sourceType !== 'project'),
  );
}

export interface SettingView {
  sourceType: SourceType;
  level: NotificationLevel;
  events: Partial<Record<string, boolean>>;
  notificationEmail: string | null;
}

function viewOf(doc: SettingDoc | null, sourceType: SourceType): SettingView {
  return {
    sourceType,
    level: doc?.level ?? DEFAULT_LEVEL[sourceType],
    events: doc?.events ?? {},
    notificationEmail: doc?.notificationEmail ?? null,
  };
}

/** GitLab's NotificationSetting entity: `level`, and `events` only when the level is custom. */
export function presentSetting(view: SettingView, higherTier: boolean): NotificationSettingEntity {
  if (view.level !== 'custom') return { level: view.level };
  const events: Partial<Record<NotificationEvent, boolean | null>> = {};
  for (const event of eventsFor(view.sourceType, higherTier))
    events[event] = view.events[event] ?? defaultSwitch(event);
  return { level: view.level, events };
}

export interface UserAddresses {
  primary: string;
  all: string[];
}

/** GitLab's `notification_email_or_default`: the chosen address while it is still the user's, else the primary. */
export function presentGlobalSetting(
  view: SettingView,
  higherTier: boolean,
  addresses: UserAddresses,
): GlobalNotificationSettingEntity {
  const chosen = view.notificationEmail;
  const stillOwned = chosen !== null && addresses.all.some((a) => a.toLowerCase() === chosen.toLowerCase());
  return { ...presentSetting(view, higherTier), notification_email: stillOwned ? chosen : addresses.primary };
}

type LevelCheck = { ok: true; level: NotificationLevel | undefined } | { ok: false; blank: true };

/**
 * Rails' enum assignment: an unknown name raises ArgumentError, which the API renders as
 * 400 {"message":"'x' is not a valid level"}; a blank one becomes nil and fails `presence`.
 */
function checkLevel(level: string | undefined): LevelCheck {
  if (level === undefined) return { ok: true, level: undefined };
  if (level.trim() === '') return { ok: false, blank: true };
  if (!(NOTIFICATION_LEVELS as readonly string[]).includes(level))
    throw new HttpError(400, { message: `'${level}' is not a valid level` });
  return { ok: true, level: level as NotificationLevel };
}

export function createSettingsService(store: SettingsStore, identity: IdentityStore) {
  /**
   * The caller's addresses: the primary one the gateway signs into the context, plus what the identity
   * events said (secondary addresses added through POST /users/:id/emails).
   */
  async function addressesOf(principal: Principal): Promise<UserAddresses> {
    const known = (await identity.addressesOf(principal.id)) ?? [];
    const all = [principal.email, ...known].filter(Boolean);
    return { primary: principal.email, all: [...new Set(all)] };
  }

  async function find(userId: number, sourceType: SourceType, sourceId: number | null): Promise<SettingView> {
    return viewOf(await store.find({ userId, sourceType, sourceId }), sourceType);
  }

  /** Saves the given fields; a new setting starts from GitLab's defaults for what is not given. */
  async function write(
    userId: number,
    sourceType: SourceType,
    sourceId: number | null,
    set: Record<string, unknown>,
  ): Promise<void> {
    const defaults: Record<string, unknown> = {};
    if (!('level' in set)) defaults.level = DEFAULT_LEVEL[sourceType];
    if (!('notificationEmail' in set)) defaults.notificationEmail = null;
    if (!Object.keys(set).some((k) => k.startsWith('events.'))) defaults.events = {};
    await store.upsert({ userId, sourceType, sourceId }, set, defaults);
  }

  /** The declared switches that were given (`declared_params(include_missing: false)`), as `$set` paths. */
  function switchesToSet(
    params: UpdateNotificationSettingParams,
    sourceType: SourceType,
    higherTier: boolean,
  ): Record<string, boolean> {
    const set: Record<string, boolean> = {};
    for (const event of eventsFor(sourceType, higherTier)) {
      const value = params[event];
      if (value !== undefined) set[`events.${event}`] = value;
    }
    return set;
  }

  async function updateSource(
    userId: number,
    sourceType: 'group' | 'project',
    sourceId: number,
    params: UpdateNotificationSettingParams,
    higherTier: boolean,
  ): Promise<SettingView> {
    const level = checkLevel(params.level);
    if (!level.ok) throw ModelError.fields({ level: ["can't be blank"] });
    const set: Record<string, unknown> = switchesToSet(params, sourceType, higherTier);
    if (level.level) set.level = level.level;
    await write(userId, sourceType, sourceId, set);
    return find(userId, sourceType, sourceId);
  }

  /**
   * PUT /notification_settings as GitLab runs it: an unknown level fails first and changes nothing; otherwise
   * the e-mail and the setting are saved independently, so a refused e-mail still lets level and switches
   * through, and the user's error is reported before the setting's.
   */
  async function updateGlobal(
    userId: number,
    params: UpdateGlobalNotificationSettingParams,
    addresses: UserAddresses,
    higherTier: boolean,
  ): Promise<SettingView> {
    const level = checkLevel(params.level);
    const set: Record<string, unknown> = {};
    let emailErrors: string[] = [];
    if (params.notification_email !== undefined) {
      const wanted = params.notification_email.trim();
      if (wanted === '') {
        set.notificationEmail = null;
      } else {
        const owned = addresses.all.find((a) => a.toLowerCase() === wanted.toLowerCase());
        if (owned) set.notificationEmail = owned;
        else
          emailErrors = [
            ...(EMAIL_FORMAT.test(wanted) ? [] : ['is invalid']),
            'must be an email you have verified',
          ];
      }
    }
    if (level.ok) {
      Object.assign(set, switchesToSet(params, 'global', higherTier));
      if (level.level) set.level = level.level;
    }
    if (level.ok || 'notificationEmail' in set) await write(userId, 'global', null, set);
    if (emailErrors.length > 0) throw ModelError.fields({ notification_email: emailErrors });
    if (!level.ok) throw ModelError.fields({ level: ["can't be blank"] });
    return find(userId, 'global', null);
  }

  /** Falls back to the primary address when the chosen one is no longer among the user's addresses. */
  const forgetNotificationEmail = store.forgetNotificationEmail;

  /** Removes every user's settings of a deleted group or project (idempotent). */
  const removeSource = store.removeSource;

  /**
   * The level a user is notified with on a project. Ancestry comes from the caller (a request's
   * `namespace.ancestorGroupIds`, outermost first) or else from the identity projection.
   */
  async function effectiveLevel(
    userId: number,
    projectId: number,
    ancestorGroupIds?: number[],
  ): Promise<EffectiveLevel> {
    const ancestors = ancestorGroupIds ?? (await identity.projectAncestors(projectId)) ?? [];
    const docs = await store.findMany([
      { userId, sourceType: 'project', sourceId: projectId },
      { userId, sourceType: 'global', sourceId: null },
      ...ancestors.map((g) => ({ userId, sourceType: 'group' as const, sourceId: g })),
    ]);
    const asSetting = (doc: SettingDoc | undefined): LevelSetting | null =>
      doc ? { level: doc.level, events: doc.events } : null;
    return resolveEffectiveLevel({
      projectId,
      project: asSetting(docs.get(settingId(userId, 'project', projectId))),
      groups: [...ancestors].reverse().map((id) => ({
        id,
        setting: asSetting(docs.get(settingId(userId, 'group', id))),
      })),
      global: asSetting(docs.get(settingId(userId, 'global', null))),
    });
  }

  return {
    addressesOf,
    find,
    updateSource,
    updateGlobal,
    removeSource,
    forgetNotificationEmail,
    effectiveLevel,
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
