import { request, type IncomingHttpHeaders } from 'node:http';

/** One server-sent event as a client parses it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

export interface SseClient {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every event received so far (comments and `retry:` are not events). */
  events: SseEvent[];
  /** Comment lines received (heartbeats). */
  comments: string[];
  /** Resolves once `count` events have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The body when the answer is not a stream (an error's JSON). */
  body(): Promise<string>;
  close(): void;
}

/** A minimal text/event-stream reader over node:http (no reconnection: tests reconnect themselves). */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let raw = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: SseEvent = { id: null, event: 'message', data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              event.data = line.slice(6);
              isEvent = true;
            }
          }
          if (isEvent) events.push(event);
        }
        for (const wake of [...waiters]) wake();
      });
      res.on('end', () => {
        endedResolve();
        for (const wake of [...waiters]) wake();
      });
      res.on('close', () => endedResolve());
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        ended,
        waitFor(count, timeoutMs = 10_000) {
          return new Promise((ok, fail) => {
            const check = (): void => {
              if (events.length >= count) {
                clearTimeout(timer);
                waiters.delete(check);
                ok(events.slice(0, count));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`${events.length} of ${count} events within ${timeoutMs} ms`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        body: async () => {
          await ended;
          return raw;
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
