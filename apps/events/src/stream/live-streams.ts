import type { Router } from 'express';
import { z } from 'zod';
import type { EventEnvelope, InternalContext } from '@gl/contracts';
import { revisionOf, type ProjectionRevisions, type ServiceRuntime } from '@gl/service-kit';
import type { ProjectionVersion } from '@gl/service-kit';
import type { IdentityAccessCache } from '../access.cache';
import { createActivityLogStore } from '../activity-log.store';
import type { ActivitySequence } from '../activity-sequence';
import type { EventsModels } from '../events.models';
import { createUsersStore } from '../users.store';
import { createActivityNotices } from './activity-notices';
import { DEFAULT_STREAM_OPTIONS, createActivityStreams, type StreamOptions } from './activity-streams';
import { createStreamSlots, streamSlotsModel } from './stream-slots';
import { createStreamRouter } from './stream.router';
import { createLiveLog } from './live-log';
import { createStreamTails } from './stream-tails';

/** Followed streams are read this often even without a notice (a notice lost, or the bus away). */
const POLL_MS = 1_000;
/** How often streams check that their server still listens (a shutdown waits for open connections). */
const SHUTDOWN_CHECK_MS = 500;

/** `EVENTS_STREAM_*` settings (each optional; the defaults are DEFAULT_STREAM_OPTIONS). */
const streamEnv = z.object({
  EVENTS_STREAM_MAX_PER_USER: z.coerce.number().int().min(1).optional(),
  EVENTS_STREAM_MAX_ANONYMOUS: z.coerce.number().int().min(0).optional(),
  EVENTS_STREAM_MAX_ANONYMOUS_PER_ADDRESS: z.coerce.number().int().min(1).optional(),
  EVENTS_STREAM_BUFFER_BYTES: z.coerce.number().int().min(1024).optional(),
  EVENTS_STREAM_HEARTBEAT_MS: z.coerce.number().int().min(100).optional(),
});

export function streamOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): StreamOptions {
  const parsed = streamEnv.parse(env);
  return {
    ...DEFAULT_STREAM_OPTIONS,
    ...(parsed.EVENTS_STREAM_MAX_PER_USER !== undefined && { maxPerUser: parsed.EVENTS_STREAM_MAX_PER_USER }),
    ...(parsed.EVENTS_STREAM_MAX_ANONYMOUS !== undefined && {
      maxAnonymous: parsed.EVENTS_STREAM_MAX_ANONYMOUS,
    }),
    ...(parsed.EVENTS_STREAM_MAX_ANONYMOUS_PER_ADDRESS !== undefined && {
      maxAnonymousPerAddress: parsed.EVENTS_STREAM_MAX_ANONYMOUS_PER_ADDRESS,
    }),
    ...(parsed.EVENTS_STREAM_BUFFER_BYTES !== undefined && {
      bufferLimit: parsed.EVENTS_STREAM_BUFFER_BYTES,
    }),
    ...(parsed.EVENTS_STREAM_HEARTBEAT_MS !== undefined && {
      heartbeatMs: parsed.EVENTS_STREAM_HEARTBEAT_MS,
    }),
  };
}

/**
 * Resolves once this service's projection has applied the identity event's revision (whichever replica's
 * consumer applies it), or after the revisions' own wait bound.
 */
async function appliedHere(revisions: Pick<ProjectionRevisions, 'caughtUp'>, event: EventEnvelope) {
  const found = revisionOf(event);
  if (!found) return;
  const isUser = found.key.startsWith('user:');
  // caughtUp reads only these two fields of a context.
  const ctx = {
    principal: isUser ? { id: Number(found.key.slice('user:'.length)) } : null,
    identityRevision: isUser
      ? { user: found.revision, visibility: 0 }
      : { user: 0, visibility: found.revision },
  } as unknown as InternalContext;
  await revisions.caughtUp(ctx).catch(() => undefined);
}

export interface LiveStreamsDeps {
  runtime: Pick<ServiceRuntime, 'bus' | 'connection'>;
  models: EventsModels;
  sequence: ActivitySequence;
  cache: IdentityAccessCache;
  version: ProjectionVersion;
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
  options?: Partial<StreamOptions>;
}

/**
 * The live activity streams of one events process: the router, the shared tails woken by the recorders'
 * notices (from every replica) and by a poll, the per-user slots, and the identity notices that make every
 * replica re-read its projection once a membership or visibility change is applied.
 */
export function createLiveStreams(deps: LiveStreamsDeps) {
  const options = { ...streamOptionsFromEnv(), ...deps.options };
  const log = createLiveLog(createActivityLogStore(deps.models.activities), deps.sequence);
  const tails = createStreamTails(log);
  const users = createUsersStore(deps.models.users);
  const notices = createActivityNotices(deps.runtime.bus);
  const streams = createActivityStreams({
    log,
    tails,
    users,
    slots: createStreamSlots(streamSlotsModel(deps.runtime.connection), options.heartbeatMs * 3),
    options,
  });

  const unsubscribe = [
    notices.onRecorded((keys) => tails.refresh(keys)),
    notices.onIdentityEvent((event) => {
      if (!revisionOf(event)) return;
      void appliedHere(deps.revisions, event).then(() => deps.version.bump());
    }),
  ];
  const timers = [
    setInterval(() => tails.refresh(tails.followed()), POLL_MS),
    setInterval(() => streams.closeStreams(), SHUTDOWN_CHECK_MS),
  ];
  for (const timer of timers) timer.unref();

  const router: Router = createStreamRouter({
    streams,
    findUser: (idOrUsername) => users.find(idOrUsername),
    cache: deps.cache,
    version: deps.version,
    revisions: deps.revisions,
  });

  return {
    router,
    streams,
    /** For the recorder: these scopes have new events (every replica's followers are woken). */
    recorded: (keys: string[]) => notices.recorded(keys),
    stop(): void {
      for (const stop of unsubscribe) stop();
      for (const timer of timers) clearInterval(timer);
      streams.closeStreams(true);
    },
  };
}

export type LiveStreams = ReturnType<typeof createLiveStreams>;
