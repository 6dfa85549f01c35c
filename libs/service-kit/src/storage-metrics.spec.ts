import { createMetrics } from './metrics';
import { consumersBehindWindow } from './storage-metrics';
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
