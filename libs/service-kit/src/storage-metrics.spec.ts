import { createMetrics } from './metrics';
import { backgroundReading, consumersBehindWindow } from './storage-metrics';
import type { StreamState } from './bus/stream-window';

const stream: StreamState = {
  messages: 3,
  bytes: 300,
  firstSeq: 1,
  lastSeq: 3,
  maxAgeMs: 10_000,
  maxBytes: 0,
};

describe('consumers behind the window, for readiness and /metrics', () => {
  it('names the consumers that are behind, and the gauges say which and how old', async () => {
    const metrics = createMetrics('window-test', {});
    metrics.streamStateOf = async () => stream;
    metrics.windowOf.set('late', async () => ({
      oldestUnackedAgeSeconds: 9,
      oldestUnackedSeq: 1,
      behind: true,
    }));
    metrics.windowOf.set('fine', async () => ({ oldestUnackedAgeSeconds: 0, behind: false }));
    expect(await consumersBehindWindow(metrics)).toEqual(['late']);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^consumer_behind_window\{durable="late",service="window-test"\} 1$/m);
    expect(text).toMatch(/^consumer_behind_window\{durable="fine",service="window-test"\} 0$/m);
    expect(text).toMatch(/^consumer_oldest_unacked_age_seconds\{durable="late",service="window-test"\} 9$/m);
    expect(text).toMatch(/^stream_max_age_seconds\{service="window-test"\} 10$/m);
    // Without GL_LOG_DIR (containers) there is no log folder to report.
    expect(text).not.toContain('log_directory_bytes');
  });

  it('When the broker does not answer, then readiness goes on at once and names none', async () => {
    const metrics = createMetrics('window-test', {});
    metrics.streamStateOf = () => new Promise<StreamState>(() => undefined);
    metrics.windowOf.set('late', async () => ({ oldestUnackedAgeSeconds: 9, behind: true }));
    const started = Date.now();
    expect(await consumersBehindWindow(metrics)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('backgroundReading', () => {
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('When it is called, then it answers at once with the last value and reads again only after the period', async () => {
    let clock = 0;
    const values = [100, 200];
    const read = jest.fn(() => Promise.resolve(values.shift() ?? -1));
    const size = backgroundReading(read, 1_000, () => clock);

    await expect(size()).rejects.toThrow('not read yet');
    await settle();
    await expect(size()).resolves.toBe(100);
    clock = 999;
    await expect(size()).resolves.toBe(100);
    expect(read).toHaveBeenCalledTimes(1);
    clock = 1_000;
    await expect(size()).resolves.toBe(100);
    await settle();
    await expect(size()).resolves.toBe(200);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('When a read fails, then the next call tries again and the last value stays', async () => {
    let clock = 0;
    const read = jest
      .fn<Promise<number>, []>()
      .mockResolvedValueOnce(5)
      .mockRejectedValueOnce(new Error('down'))
      .mockResolvedValueOnce(7);
    const size = backgroundReading(read, 1_000, () => clock);
    void size().catch(() => undefined);
    await settle();
    clock = 2_000;
    await expect(size()).resolves.toBe(5);
    await settle();
    await expect(size()).resolves.toBe(5);
    await settle();
    await expect(size()).resolves.toBe(7);
    expect(read).toHaveBeenCalledTimes(3);
  });
});
