import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `manifest.json`, written last: a directory without one is an interrupted backup and restore refuses
 * it. Every data file is gzipped JSON lines (one document or message a line), so memory stays bounded
 * however large a collection or the stream is.
 */
export const MANIFEST_FILE = 'manifest.json';
export const FORMAT = 1;

export interface IndexSpec {
  name: string;
  key: Record<string, unknown>;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Record<string, unknown>;
  expireAfterSeconds?: number;
}

export interface CollectionEntry {
  name: string;
  /** Relative to the backup directory. */
  file: string;
  documents: number;
  indexes: IndexSpec[];
}

export interface DatabaseEntry {
  name: string;
  collections: CollectionEntry[];
}

export interface ConsumerEntry {
  durable: string;
  /** The durable's configuration as the broker reported it (filters, ack policy, ack wait…). */
  config: Record<string, unknown>;
  /** Every message up to this stream sequence was acknowledged when the backup began. */
  ackFloor: number;
}

export interface StreamEntry {
  name: string;
  config: Record<string, unknown>;
  firstSeq: number;
  lastSeq: number;
  messages: number;
  file: string;
  consumers: ConsumerEntry[];
}

/** How the copy was cut (README "Backup and restore"); absent in backups of older builds. */
export interface CutEntry {
  /** True: the gateways held writes from before the first fenced database was read to the stream's end. */
  moment: boolean;
  gateways: number;
  /** How long writes waited at the gateways, and how many did. */
  heldMs: number;
  heldRequests: number;
  /** Whether the consumers and relays had caught up before the databases were read. */
  quiet: boolean;
  /** Why it is not a moment, when it is not. */
  note?: string;
}

export interface Manifest {
  format: typeof FORMAT;
  startedAt: string;
  finishedAt: string;
  /** `ferretdb 1.24.2` or `mongodb 7.0.x`: where it came from (a dump restores on either). */
  mongoServer: string;
  databases: DatabaseEntry[];
  stream: StreamEntry | null;
  cut?: CutEntry;
  bytes: number;
}

export function writeManifest(dir: string, manifest: Manifest): void {
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function readManifest(dir: string): Manifest {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  } catch {
    throw new Error(`${dir} holds no ${MANIFEST_FILE}: not a backup, or one that did not finish`);
  }
  const manifest = JSON.parse(text) as Omit<Manifest, 'format'> & { format: unknown };
  if (manifest.format !== FORMAT)
    throw new Error(`${dir}: backup format ${String(manifest.format)}; this build reads format ${FORMAT}`);
  return manifest as Manifest;
}
