import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Request, Response } from 'express';
import type { Principal, UserSummary } from '@gl/contracts';
import { HttpError, ParamError } from '@gl/service-kit';
import type { ActivityDoc, UserDoc } from '../events.models';
import { authorsOf, presentActivity } from '../events.presenter';
import type { LiveLog } from './live-log';
import type { UsersStore } from '../users.store';
import { openSse, sseMessage, type SseChannel } from './sse';
import type { StreamSlot, StreamSlots } from './stream-slots';
import type { StreamTails } from './stream-tails';

export interface StreamOptions {
  /** Open streams per user, counted over every replica (429 past it). */
  maxPerUser: number;
  /** Open anonymous streams per process (public projects' streams need no token). */
  maxAnonymous: number;
  /** Open anonymous streams per client address, counted over every replica (429 past it). */
  maxAnonymousPerAddress: number;
  /** Bytes waiting for a slow client before its stream ends with `event: overflow`. */
  bufferLimit: number;
  heartbeatMs: number;
  retryMs: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = {
  maxPerUser: 5,
  maxAnonymous: 1_000,
  maxAnonymousPerAddress: 20,
  bufferLimit: 1024 * 1024,
  heartbeatMs: 15_000,
  retryMs: 1_000,
};

/** GitLab's answer past a rate limit (lib/api/helpers.rb `render_api_error!('429 Too Many Requests', 429)`). */
export const TOO_MANY_STREAMS = { message: '429 Too Many Requests' };

const AUTHOR_TTL_MS = 60_000;
/** Events whose JSON is kept for other streams (cleared past this; the log is the source either way). */
const RENDERED_KEPT = 5_000;

export interface StreamRequest {
  /** The scope followed (`project:<id>`, `author:<id>`, `all-projects`: activity-scopes.ts). */
  stream: string;
  principal: Principal | null;
  /** The caller's read rule for one event, current at the moment it is sent. */
  visibility: () => Promise<(activity: ActivityDoc) => boolean>;
}

export interface ActivityStreamsDeps {
  log: LiveLog;
  tails: StreamTails;
  users: UsersStore;
  slots: StreamSlots;
  options: StreamOptions;
}

/**
 * Last-Event-ID from the header, else `?last_event_id=` (already parsed by the contract), by one rule: an
 * event id is digits and a safe integer. (Node drops the whitespace around a header's value, as HTTP says
 * it is not part of it, so `Last-Event-ID:  5` is 5, where the parameter ` 5` is refused.)
 */
function resumeId(req: Request, fromQuery: number | undefined): number | undefined {
  const header = req.headers['last-event-id'];
  if (typeof header === 'string' && header !== '') {
    const id = Number(header);
    if (!/^\d{1,16}$/.test(header) || !Number.isSafeInteger(id)) {
      throw new ParamError(['last_event_id is invalid']);
    }
    return id;
  }
  return fromQuery;
}

/**
 * Serves live activity streams: each connection reads its scope from its own position (an id) — after its
 * Last-Event-ID, else from the scope's current end — through the shared tails, checks each event against the
 * caller's current read rule as it sends it, and waits for the next wake-up when it has caught up.
 */
export function createActivityStreams(deps: ActivityStreamsDeps) {
  const { tails, options } = deps;
  const open = new Set<{ channel: SseChannel; server: Server | undefined }>();
  let anonymous = 0;
  const authors = new Map<number, { user: UserDoc | null; at: number }>();
  /** Formatted messages by external URL (the same for every caller of one deployment) and event id. */
  const rendered = new Map<string, Map<number, string>>();

  /** Authors of the events to send, from a short-lived copy of the user projection. */
  async function authorsFor(items: ActivityDoc[], externalUrl: string): Promise<Map<number, UserSummary>> {
    const now = Date.now();
    const missing = [...new Set(items.map((i) => i.authorId))].filter(
      (id) => !authors.has(id) || now - authors.get(id)!.at > AUTHOR_TTL_MS,
    );
    if (missing.length > 0) {
      const found = new Map((await deps.users.byIds(missing)).map((u) => [u._id, u]));
      for (const id of missing) authors.set(id, { user: found.get(id) ?? null, at: now });
      if (authors.size > 10_000) authors.clear();
    }
    const known = items.flatMap((i) => {
      const user = authors.get(i.authorId)?.user;
      return user ? [user] : [];
    });
    return authorsOf(items, known, externalUrl);
  }

  /** Sends what the client may read of `items`; false once the stream is closed. */
  async function deliver(
    channel: SseChannel,
    request: StreamRequest,
    items: ActivityDoc[],
    externalUrl: string,
  ): Promise<boolean> {
    const visible = await request.visibility();
    const sent = items.filter(visible);
    if (sent.length === 0) return !channel.closed;
    return channel.send(await presented(sent, externalUrl));
  }

  /**
   * The events as formatted messages, each made once for every stream that sends it (a hundred streams of
   * one project share it: this was most of the cost of a delivery); kept briefly, since an author's name
   * may change.
   */
  async function presented(items: ActivityDoc[], externalUrl: string) {
    let byId = rendered.get(externalUrl);
    if (!byId || byId.size > RENDERED_KEPT) {
      byId = new Map();
      rendered.set(externalUrl, byId);
    }
    const missing = items.filter((item) => !byId.has(item._id));
    if (missing.length > 0) {
      const byAuthor = await authorsFor(missing, externalUrl);
      for (const item of missing) {
        const data = JSON.stringify(presentActivity(item, byAuthor));
        byId.set(item._id, sseMessage(item._id, item.actionName, data));
      }
    }
    return items.map((item) => ({ id: item._id, text: byId.get(item._id)! }));
  }

  /**
   * A place for one more stream of this caller, or 429 with a Retry-After of one heartbeat: places free as
   * streams close, and a dead replica's within a few heartbeats.
   */
  async function takeSlot(
    req: Request,
    res: Response,
    principal: Principal | null,
  ): Promise<StreamSlot | null> {
    const refuse = (): never => {
      res.setHeader('Retry-After', String(Math.ceil(options.heartbeatMs / 1000)));
      throw new HttpError(429, TOO_MANY_STREAMS);
    };
    if (principal)
      return (await deps.slots.take(`user:${principal.id}`, options.maxPerUser, randomUUID())) ?? refuse();
    if (anonymous >= options.maxAnonymous) refuse();
    const address = req.ctx.clientAddress;
    if (!address) return null;
    return (
      (await deps.slots.take(`anonymous:${address}`, options.maxAnonymousPerAddress, randomUUID())) ??
      refuse()
    );
  }

  return {
    /** Answers one stream request: validation and access are the caller's; this opens and runs the stream. */
    async serve(req: Request, res: Response, request: StreamRequest, lastEventId?: number): Promise<void> {
      const resumeAfter = resumeId(req, lastEventId);
      const slot = await takeSlot(req, res, request.principal);
      if (!request.principal) anonymous += 1;
      const { stream } = request;
      let following = false;
      let renew: NodeJS.Timeout | undefined;
      let entry: { channel: SseChannel; server: Server | undefined } | undefined;
      try {
        await tails.follow(stream);
        following = true;
        let position =
          resumeAfter === undefined ? tails.end(stream) : await deps.log.resumeAfter(stream, resumeAfter);
        const channel = openSse(res, options);
        entry = { channel, server: (req.socket as { server?: Server }).server };
        open.add(entry);
        if (slot) {
          renew = setInterval(() => void slot.renew().catch(() => undefined), options.heartbeatMs);
          renew.unref();
        }
        while (!channel.closed) {
          const { items, next } = await tails.read(stream, position);
          if (items.length === 0 && next === position) {
            await tails.waitPast(stream, position, channel.signal);
            continue;
          }
          position = next;
          if (!(await deliver(channel, request, items, req.ctx.externalUrl))) break;
        }
      } catch (err) {
        // Before the stream opened, the error is the answer (404, 429, …); after, the stream just ends.
        if (!entry) throw err;
        entry.channel.close();
      } finally {
        if (entry) open.delete(entry);
        if (renew) clearInterval(renew);
        if (following) tails.unfollow(stream);
        if (!request.principal) anonymous -= 1;
        await slot?.release().catch(() => undefined);
      }
    },

    /** Open streams on this process. */
    count: () => open.size,

    /**
     * Ends every stream whose server stopped listening (a shutdown has begun: its close waits for open
     * connections), or all of them. Clients reconnect with Last-Event-ID, to another replica.
     */
    closeStreams(all = false): void {
      for (const entry of open) {
        if (all || (entry.server && !entry.server.listening)) entry.channel.close();
      }
    },
  };
}

export type ActivityStreams = ReturnType<typeof createActivityStreams>;
