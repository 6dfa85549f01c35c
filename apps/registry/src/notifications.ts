import { Counter } from 'prom-client';
import type { Logger } from 'pino';
import RE2 from 're2';
import {
  registryNotificationEnvelope,
  registryNotificationEvent,
  type RegistryNotificationEvent,
} from '@gl/contracts';
import type { ServiceMetrics } from '@gl/service-kit';

/**
 * Why a registry notification event was dropped. The request is still answered 200: the Docker registry
 * retries a notification the endpoint refuses, holding the later ones of its queue behind it, so refusing a
 * bad one would stall every notification after it. GitLab differs at the edges:
 * lib/api/container_registry_event.rb answers Grape's 400 to a body without an `events` array or with an
 * action other than push, delete and pull, and accepts any string as a repository
 * (lib/container_registry/path.rb then raises on an invalid one). What is dropped here is counted and
 * logged instead.
 */
export type DropReason =
  'invalid_envelope' | 'invalid_event' | 'invalid_repository' | 'invalid_tag' | 'invalid_digest';

export interface DroppedNotification {
  reason: DropReason;
  /** The event's place in the envelope (null: the envelope itself). */
  index: number | null;
  /** What was wrong, cut to DETAIL_CHARS (a name may be megabytes long). */
  detail: string;
}

export interface ScreenedNotifications {
  events: RegistryNotificationEvent[];
  dropped: DroppedNotification[];
}

/** distribution/reference/reference.go NameTotalLengthMax: a registry refuses longer repository names. */
const REPOSITORY_MAX_CHARS = 255;
/**
 * lib/container_registry/path.rb `valid?` (GitLab downcases the path first): the name matches
 * Gitlab::Regex.container_repository_name_regex (lib/gitlab/regex.rb, Docker's repository grammar) and has
 * more than one and fewer than Namespace::NUMBER_OF_ANCESTORS_ALLOWED (20) components. RE2, so the nested
 * repetition of that grammar cannot backtrack.
 */
const REPOSITORY_NAME = new RE2('^[a-z0-9]+(([._/]|__|-*)[a-z0-9])*$');
const MAX_COMPONENTS = 20;
/** Gitlab::Regex.container_registry_tag_regex, anchored (distribution's tag grammar, 128 characters). */
const TAG = new RE2('^[\\w][\\w.-]{0,127}$');
/**
 * The OCI image spec's digest grammar (algorithm ":" encoded): a digest goes into the registry API's
 * manifest URL when a tag is deleted, so nothing else may pass. 255 characters hold any registered
 * algorithm (sha512 is 135).
 */
const DIGEST = new RE2('^[a-z0-9]+([+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$');
const DIGEST_MAX_CHARS = 255;
/** How much of a bad value a log line shows. */
const DETAIL_CHARS = 120;
/** Samples per request in the log line; the counter counts them all. */
const LOGGED_SAMPLES = 3;

/** A bounded, printable excerpt of a value for the log (NULs and control characters escaped by JSON). */
function excerpt(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const shown = JSON.stringify(text.slice(0, DETAIL_CHARS));
  return text.length > DETAIL_CHARS ? `${shown}… (${text.length} chars)` : shown;
}

/** Why this repository name is not one a registry sends, or null. */
function repositoryProblem(name: string): string | null {
  if (name.length > REPOSITORY_MAX_CHARS) return `repository name over ${REPOSITORY_MAX_CHARS} characters`;
  const lower = name.toLowerCase();
  const components = lower.split('/').length;
  if (!REPOSITORY_NAME.test(lower) || components < 2 || components >= MAX_COMPONENTS) {
    return 'repository name is not a registry path';
  }
  return null;
}

/** The first problem of an event the service would act on (push and delete), or null. */
function eventProblem(event: RegistryNotificationEvent): Omit<DroppedNotification, 'index'> | null {
  const { repository, tag, digest } = event.target;
  const name = repositoryProblem(repository);
  if (name) return { reason: 'invalid_repository', detail: `${name}: ${excerpt(repository)}` };
  // An empty tag is an untagged manifest, which the service ignores as GitLab does.
  if (tag && !TAG.test(tag)) return { reason: 'invalid_tag', detail: `tag ${excerpt(tag)}` };
  if (digest !== undefined && (digest.length > DIGEST_MAX_CHARS || !DIGEST.test(digest))) {
    return { reason: 'invalid_digest', detail: `digest ${excerpt(digest)}` };
  }
  return null;
}

/**
 * The events of a notification body the service applies, and those it drops with the reason. Events of
 * other actions (pull, mount) pass through: GitLab's ContainerRegistry::Event#supported? ignores them, as
 * applyNotification does, and they are not malformed.
 */
export function screenNotifications(body: unknown): ScreenedNotifications {
  const envelope = registryNotificationEnvelope.safeParse(body);
  if (!envelope.success) {
    return {
      events: [],
      dropped: [{ reason: 'invalid_envelope', index: null, detail: 'body has no "events" array' }],
    };
  }
  const events: RegistryNotificationEvent[] = [];
  const dropped: DroppedNotification[] = [];
  envelope.data.events.forEach((raw, index) => {
    const parsed = registryNotificationEvent.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue?.path.join('.') || 'event';
      dropped.push({
        reason: 'invalid_event',
        index,
        detail: excerpt(`${at}: ${issue?.message ?? 'invalid'}`),
      });
      return;
    }
    const acted = parsed.data.action === 'push' || parsed.data.action === 'delete';
    const problem = acted ? eventProblem(parsed.data) : null;
    if (problem) dropped.push({ ...problem, index });
    else events.push(parsed.data);
  });
  return { events, dropped };
}

/** `registry_notifications_dropped_total{reason}` on the process's registry (made once per registry). */
export function droppedNotificationsCounter(metrics: ServiceMetrics): Counter<'reason'> {
  const name = 'registry_notifications_dropped_total';
  return (
    (metrics.registry.getSingleMetric(name) as Counter<'reason'> | undefined) ??
    new Counter({
      name,
      help: 'Docker registry notification events dropped as malformed, by reason (the request still gets 200)',
      labelNames: ['reason'],
      registers: [metrics.registry],
    })
  );
}

/** Counts every dropped event and logs one warning per request: counts by reason and a few samples. */
export function reportDropped(
  logger: Pick<Logger, 'warn'>,
  counter: Counter<'reason'>,
  dropped: DroppedNotification[],
): void {
  if (dropped.length === 0) return;
  const byReason: Partial<Record<DropReason, number>> = {};
  for (const { reason } of dropped) {
    counter.inc({ reason });
    byReason[reason] = (byReason[reason] ?? 0) + 1;
  }
  logger.warn(
    { dropped: byReason, samples: dropped.slice(0, LOGGED_SAMPLES) },
    'malformed registry notification events dropped',
  );
}
