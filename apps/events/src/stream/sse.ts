import type { Response } from 'express';

/** One server-sent event: `id:`, `event:` and one `data:` line (JSON never holds a raw line break). */
export function sseMessage(id: number | null, event: string, data: string): string {
  const lines = id === null ? [] : [`id: ${id}`];
  // The event name is one line: a line break in it would start another field.
  lines.push(`event: ${event.replace(/[\r\n]+/g, ' ')}`, `data: ${data}`);
  return `${lines.join('\n')}\n\n`;
}

export interface SseOptions {
  /** Bytes waiting for a slow client past which the stream ends with `event: overflow`. */
  bufferLimit: number;
  /** A comment this often keeps idle proxies from closing the connection. */
  heartbeatMs: number;
  /** Reconnection delay sent to EventSource clients (`retry:`). */
  retryMs: number;
}

export interface SseChannel {
  readonly closed: boolean;
  /** Aborts when the stream ends, whoever ends it. */
  readonly signal: AbortSignal;
  /**
   * Queues messages (each already formatted by sseMessage) in one write; false when the stream is closed (or
   * just closed because the client fell behind).
   */
  send(messages: readonly { id: number; text: string }[]): boolean;
  /** Ends the stream, with a last message first when given. */
  close(last?: { event: string; data: string }): void;
}

/**
 * Starts a `text/event-stream` answer: headers that keep every proxy from buffering, compressing or caching
 * it, the retry delay, and a comment every `heartbeatMs`. A client that reads slower than the stream writes
 * leaves bytes in Node's buffer; past `bufferLimit` the stream ends with `event: overflow` (the client
 * resumes with Last-Event-ID), so memory per connection stays bounded.
 */
export function openSse(res: Response, options: SseOptions): SseChannel {
  const controller = new AbortController();
  let closed = false;
  let lastId: number | null = null;
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  // nginx and other proxies that honour it: pass each chunk on at once.
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  res.write(`retry: ${options.retryMs}\n\n`);

  const heartbeat = setInterval(() => {
    if (!closed) res.write(`: keep-alive\n\n`);
  }, options.heartbeatMs);
  heartbeat.unref();

  const finish = (): void => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    controller.abort();
  };
  res.on('close', finish);

  const channel: SseChannel = {
    get closed() {
      return closed;
    },
    signal: controller.signal,
    send(messages) {
      if (closed) return false;
      if (messages.length === 0) return true;
      res.write(messages.length === 1 ? messages[0]!.text : messages.map((m) => m.text).join(''));
      lastId = messages.at(-1)!.id;
      if (res.writableLength > options.bufferLimit) {
        channel.close({ event: 'overflow', data: JSON.stringify({ last_event_id: lastId }) });
        return false;
      }
      return true;
    },
    close(last) {
      if (closed) return;
      if (last) res.write(sseMessage(null, last.event, last.data));
      finish();
      res.end();
    },
  };
  return channel;
}
