import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';

/** How much a local run keeps of each process's output, and of all of them together. */
export interface LogLimits {
  /** A file is rotated (`x.log` → `x.log.1` → `x.log.2` …) before it would grow past this. */
  fileMaxBytes: number;
  /** Files kept per process, the current one included. */
  files: number;
  /** The whole log folder: past this, the oldest rotated files of any process are removed. */
  dirMaxBytes: number;
}

const MiB = 1024 * 1024;

/**
 * 10 MiB × 3 per process; 200 MiB for the folder. The folder's cap holds only while it is at least one full
 * file per process (current files are never removed): 20 processes at the defaults, so a stack with more
 * replicas needs a larger GL_LOG_DIR_MAX_BYTES or a smaller GL_LOG_FILE_MAX_BYTES.
 */
export const DEFAULT_LOG_LIMITS: LogLimits = { fileMaxBytes: 10 * MiB, files: 3, dirMaxBytes: 200 * MiB };

/** `GL_LOG_FILE_MAX_BYTES`, `GL_LOG_FILES`, `GL_LOG_DIR_MAX_BYTES`; a value that is not a positive integer is refused. */
export function logLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): LogLimits {
  const read = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`${name}=${raw}: must be a positive integer`);
    return value;
  };
  return {
    fileMaxBytes: read('GL_LOG_FILE_MAX_BYTES', DEFAULT_LOG_LIMITS.fileMaxBytes),
    files: read('GL_LOG_FILES', DEFAULT_LOG_LIMITS.files),
    dirMaxBytes: read('GL_LOG_DIR_MAX_BYTES', DEFAULT_LOG_LIMITS.dirMaxBytes),
  };
}

/** `x.log.3` → 3; the current file counts as 0. */
const ROTATED = /\.log\.(\d+)$/;

/** Bytes of the regular files directly in `dir` (what the log folder holds); 0 when it does not exist. */
export function directoryBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const stat = fs.statSync(path.join(dir, name));
      if (stat.isFile()) total += stat.size;
    } catch {
      // removed meanwhile
    }
  }
  return total;
}

/**
 * Removes rotated files (`*.log.N`) of any process, oldest first, until they and `currentFileBytes` for each
 * current file (which may grow that far before its next rotation) fit `maxBytes`, so the folder never
 * passes it. Current files are never removed: a process is writing to each.
 */
export function pruneLogDirectory(dir: string, maxBytes: number, currentFileBytes = 0): void {
  const files = fs
    .readdirSync(dir)
    .map((name) => {
      try {
        const stat = fs.statSync(path.join(dir, name));
        return stat.isFile() ? { name, size: stat.size, mtime: stat.mtimeMs } : undefined;
      } catch {
        return undefined;
      }
    })
    .filter((f) => f !== undefined);
  const rotated = files.filter((f) => ROTATED.test(f.name)).sort((a, b) => a.mtime - b.mtime);
  const current = files.filter((f) => !ROTATED.test(f.name));
  let total =
    rotated.reduce((sum, f) => sum + f.size, 0) +
    current.reduce((sum, f) => sum + Math.max(f.size, currentFileBytes), 0);
  for (const file of rotated) {
    if (total <= maxBytes) break;
    fs.rmSync(path.join(dir, file.name), { force: true });
    total -= file.size;
  }
}

/**
 * An append-only log file that rotates by size: before a write would take `file` past `fileMaxBytes`, it
 * becomes `file.1` (`file.1` becomes `file.2`, … the last of `files` is dropped) and a new `file` starts;
 * then the folder is pruned to `dirMaxBytes`, counting each current file at its full size. A chunk is never split across files. Writes are synchronous:
 * the launcher only forwards its children's output, and the order of lines must be kept.
 */
export function createRotatingLog(file: string, limits: LogLimits = DEFAULT_LOG_LIMITS): Writable {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  let fd = fs.openSync(file, 'a');
  let size = fs.fstatSync(fd).size;

  const rotate = (): void => {
    fs.closeSync(fd);
    if (limits.files <= 1) {
      fs.rmSync(file, { force: true });
    } else {
      for (let n = limits.files - 1; n >= 1; n--) {
        const from = n === 1 ? file : `${file}.${n - 1}`;
        if (fs.existsSync(from)) fs.renameSync(from, `${file}.${n}`);
      }
    }
    fd = fs.openSync(file, 'a');
    size = 0;
    pruneLogDirectory(dir, limits.dirMaxBytes, limits.fileMaxBytes);
  };

  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      try {
        if (size > 0 && size + chunk.length > limits.fileMaxBytes) rotate();
        fs.writeSync(fd, chunk);
        size += chunk.length;
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    // Ending (final) is followed by destroy; the file is closed once.
    destroy(err, callback) {
      fs.close(fd, () => callback(err));
    },
  });
}
