import { eventEnvelope, type EventEnvelope } from '@gl/contracts';
import type { Bus } from '@gl/service-kit';

/**
 * Wake-up notices for live streams, over plain NATS (at most once, to every events replica; the subject is
 * outside the JetStream stream's `gl.>` and `cmd.>`, so nothing stores them). A lost notice only delays a
 * stream until its next poll: what a stream sends is read from the log, never from a notice.
 */
export const ACTIVITY_RECORDED_SUBJECT = 'notice.events.activity.recorded';

/** Identity events as JetStream stores them: a plain subscription sees each one in every replica. */
const IDENTITY_SUBJECT = 'gl.identity.>';

export interface ActivityNotices {
  /** Tells every replica that these scopes (activity-scopes.ts) have new events. */
  recorded(streams: string[]): void;
  /** Calls `listener` with the streams of each notice; returns the unsubscribe. */
  onRecorded(listener: (streams: string[]) => void): () => void;
  /** Calls `listener` with every identity event published (memberships, visibility, users). */
  onIdentityEvent(listener: (event: EventEnvelope) => void): () => void;
}

export function createActivityNotices(bus: Pick<Bus, 'connection'>): ActivityNotices {
  const subscribe = <T>(
    subject: string,
    decode: (text: string) => T | null,
    listener: (value: T) => void,
  ) => {
    const subscription = bus.connection.subscribe(subject, {
      callback(err, msg) {
        if (err) return;
        let value: T | null = null;
        try {
          value = decode(msg.string());
        } catch {
          // Not ours to judge: a malformed message wakes nobody.
        }
        if (value !== null) listener(value);
      },
    });
    return () => subscription.unsubscribe();
  };
  return {
    recorded(streams) {
      if (streams.length === 0 || bus.connection.isClosed()) return;
      bus.connection.publish(ACTIVITY_RECORDED_SUBJECT, JSON.stringify(streams));
    },
    onRecorded: (listener) =>
      subscribe(
        ACTIVITY_RECORDED_SUBJECT,
        (text) => {
          const value: unknown = JSON.parse(text);
          return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : null;
        },
        listener,
      ),
    onIdentityEvent: (listener) =>
      subscribe(
        IDENTITY_SUBJECT,
        (text) => {
          const parsed = eventEnvelope.safeParse(JSON.parse(text));
          return parsed.success ? parsed.data : null;
        },
        listener,
      ),
  };
}
