import type { Response } from 'express';
import { openSse, sseMessage } from './sse';

const message = (id: number, data: string) => ({ id, text: sseMessage(id, 'opened', data) });

/** Just enough of a Response: headers, writes, and how many bytes wait for the client. */
function fakeResponse() {
  const written: string[] = [];
  const headers = new Map<string, string>();
  const listeners = new Map<string, () => void>();
  const res = {
    writableLength: 0,
    ended: false,
    status: () => res,
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    flushHeaders: () => undefined,
    socket: null,
    write(chunk: string) {
      written.push(chunk);
      res.writableLength += chunk.length;
      return true;
    },
    end() {
      res.ended = true;
      listeners.get('close')?.();
    },
    on(event: string, listener: () => void) {
      listeners.set(event, listener);
    },
  };
  return { res, written, headers, asResponse: res as unknown as Response };
}

const OPTIONS = { bufferLimit: 1_000, heartbeatMs: 60_000, retryMs: 1_000 };

describe('server-sent events', () => {
  it('When a message is formatted, then id, event and one data line, and the event name stays one line', () => {
    expect(sseMessage(7, 'commented on', '{"a":1}')).toBe('id: 7\nevent: commented on\ndata: {"a":1}\n\n');
    expect(sseMessage(null, 'x\r\ny', '1')).toBe('event: x y\ndata: 1\n\n');
  });

  it('When the stream opens, then headers keep proxies from buffering or transforming it', () => {
    const { headers, written, asResponse } = fakeResponse();
    openSse(asResponse, OPTIONS).close();
    expect(headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(headers.get('x-accel-buffering')).toBe('no');
    expect(written[0]).toBe('retry: 1000\n\n');
  });

  it('When the client stops reading and the buffer passes the limit, then a last overflow event and the end', () => {
    const { res, written, asResponse } = fakeResponse();
    const channel = openSse(asResponse, OPTIONS);
    let sent = 0;
    while (channel.send([message(100 + sent, 'x'.repeat(100))])) sent++;
    expect(sent).toBeGreaterThan(3);
    expect(res.ended).toBe(true);
    expect(channel.closed).toBe(true);
    expect(channel.signal.aborted).toBe(true);
    expect(written.at(-1)).toBe(`event: overflow\ndata: {"last_event_id":${100 + sent}}\n\n`);
    expect(channel.send([message(999, 'late')])).toBe(false);
  });
});
