import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { createRotatingLog, directoryBytes, logLimitsFromEnv, pruneLogDirectory } from './rotating-log';

const write = (out: Writable, text: string): Promise<void> =>
  new Promise((resolve, reject) => out.write(text, (err) => (err ? reject(err) : resolve())));
const end = (out: Writable): Promise<void> => new Promise((resolve) => out.end(resolve));
const line = (n: number): string => `${String(n).padStart(9, '0')}\n`; // 10 bytes

describe('rotating log', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gl-rotating-log-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const files = (): string[] => fs.readdirSync(dir).sort();
  const read = (name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');

  it('When a file would pass its size, then it rotates, keeps the newest files, and no line is split or lost', async () => {
    const out = createRotatingLog(path.join(dir, 'gateway.log'), {
      fileMaxBytes: 100,
      files: 3,
      dirMaxBytes: 10_000,
    });
    for (let n = 0; n < 45; n++) await write(out, line(n));
    await end(out);
    expect(files()).toEqual(['gateway.log', 'gateway.log.1', 'gateway.log.2']);
    for (const name of files()) expect(fs.statSync(path.join(dir, name)).size).toBeLessThanOrEqual(100);
    // Newest in the current file, then .1, then .2: the 25 newest lines of 45, in order.
    const kept = read('gateway.log.2') + read('gateway.log.1') + read('gateway.log');
    expect(kept).toBe(Array.from({ length: 25 }, (_, i) => line(20 + i)).join(''));
  });

  it('When a log exists already, then writing appends and counts what is there', async () => {
    fs.writeFileSync(path.join(dir, 'events.log'), 'x'.repeat(95));
    const out = createRotatingLog(path.join(dir, 'events.log'), {
      fileMaxBytes: 100,
      files: 2,
      dirMaxBytes: 10_000,
    });
    await write(out, line(1));
    await end(out);
    expect(read('events.log.1')).toBe('x'.repeat(95));
    expect(read('events.log')).toBe(line(1));
  });

  it('When the folder passes its cap, then the oldest rotated files of any process go, never a current file', async () => {
    const limits = { fileMaxBytes: 100, files: 4, dirMaxBytes: 450 };
    const a = createRotatingLog(path.join(dir, 'a.log'), limits);
    const b = createRotatingLog(path.join(dir, 'b.log'), limits);
    for (let n = 0; n < 60; n++) {
      await write(a, line(n));
      await write(b, line(n));
    }
    await Promise.all([end(a), end(b)]);
    expect(directoryBytes(dir)).toBeLessThanOrEqual(450);
    // Two current files of up to 100 bytes each leave room for two rotated ones.
    expect(files().filter((f) => /\.log\.\d$/.test(f))).toHaveLength(2);
    expect(files()).toEqual(expect.arrayContaining(['a.log', 'b.log']));
    expect(read('a.log').endsWith(line(59))).toBe(true);
    expect(read('b.log').endsWith(line(59))).toBe(true);
  });

  it('pruneLogDirectory removes rotated files oldest first until the folder fits', () => {
    const at = (name: string, bytes: number, ageS: number): void => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, 'x'.repeat(bytes));
      const time = new Date(Date.now() - ageS * 1000);
      fs.utimesSync(file, time, time);
    };
    at('nats.log', 100, 0);
    at('nats.log.1', 100, 30);
    at('gateway.log.2', 100, 60);
    at('gateway.log.1', 100, 20);
    pruneLogDirectory(dir, 250);
    expect(files()).toEqual(['gateway.log.1', 'nats.log']);
    // Counting the current file at the 150 bytes it may grow to, the last rotated one no longer fits.
    pruneLogDirectory(dir, 200, 150);
    expect(files()).toEqual(['nats.log']);
  });

  it('logLimitsFromEnv reads the three settings and refuses what is not a positive integer', () => {
    expect(logLimitsFromEnv({})).toEqual({
      fileMaxBytes: 10 * 1024 * 1024,
      files: 3,
      dirMaxBytes: 200 * 1024 * 1024,
    });
    expect(
      logLimitsFromEnv({ GL_LOG_FILE_MAX_BYTES: '1000', GL_LOG_FILES: '2', GL_LOG_DIR_MAX_BYTES: '5000' }),
    ).toEqual({ fileMaxBytes: 1000, files: 2, dirMaxBytes: 5000 });
    expect(() => logLimitsFromEnv({ GL_LOG_FILES: '0' })).toThrow('GL_LOG_FILES=0');
    expect(() => logLimitsFromEnv({ GL_LOG_FILE_MAX_BYTES: '10MB' })).toThrow('GL_LOG_FILE_MAX_BYTES');
  });
});
