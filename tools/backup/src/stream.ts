import { join } from 'node:path';
import {
  AckPolicy,
  DeliverPolicy,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { headers as createHeaders } from '@nats-io/nats-core';
import type { ConsumerEntry, StreamEntry } from './manifest';
import { openLineWriter, readLines } from './lines';
import type { Progress } from './progress';

/** One stream message as a line of the dump. */
interface MessageLine {
  seq: number;
  subject: string;
  /** When the broker stored it (the restored copy is stored again, now). */
  time: string;
  headers?: [string, string[]][];
  /** Base64 of the payload (an event envelope's JSON). */
  data: string;
}

/**
 * Where each durable consumer stood before any database was read: everything up to `ackFloor` had been
 * applied, so it is in the databases the dump reads afterwards. What came after is redelivered after a
 * restore, and the handlers are idempotent by event id (the same as after any crash).
 */
export async function consumerPositions(jsm: JetStreamManager, stream: string): Promise<ConsumerEntry[]> {
  const entries: ConsumerEntry[] = [];
  for await (const info of jsm.consumers.list(stream)) {
    const durable = info.config.durable_name;
    if (!durable) continue; // ephemeral: a replay or an observer, nothing to resume
    entries.push({
      durable,
      config: { ...info.config },
      ackFloor: info.ack_floor.stream_seq,
    });
  }
  return entries.sort((a, b) => a.durable.localeCompare(b.durable));
}

/**
 * Reads the stream from its first message up to `lastSeq`, the last one stored once every collection but
 * the counters was read, in order, into the dump. Every event a dumped consumer applied is in it. An event
 * published later belongs to a document the dump holds with the event still pending in its outbox fields
 * (the relay clears them only after publishing), so the restored relay publishes it again.
 */
export async function dumpStream(
  js: JetStreamClient,
  jsm: JetStreamManager,
  stream: string,
  lastSeq: number,
  consumers: ConsumerEntry[],
  dir: string,
  progress: Progress,
): Promise<{ entry: StreamEntry; bytes: number }> {
  const info = await jsm.streams.info(stream);
  const firstSeq = info.state.first_seq;
  const stored = lastSeq >= firstSeq ? lastSeq - firstSeq + 1 : 0;
  const file = join('nats', `${stream}.jsonl.gz`);
  const writer = openLineWriter(join(dir, file));
  const step = progress.step(`stream ${stream}`, stored);
  let messages = 0;
  if (stored > 0) {
    const reader = await js.consumers.get(stream, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: firstSeq,
    });
    reading: for (;;) {
      const batch = await reader.fetch({ max_messages: 500, expires: 2_000 });
      let got = 0;
      for await (const msg of batch) {
        got += 1;
        if (msg.seq > lastSeq) break reading;
        const line: MessageLine = {
          seq: msg.seq,
          subject: msg.subject,
          time: msg.timestamp,
          ...(msg.headers ? { headers: [...msg.headers] } : {}),
          data: Buffer.from(msg.data).toString('base64'),
        };
        await writer.write(JSON.stringify(line));
        messages += 1;
        step.add(1);
        if (msg.seq >= lastSeq) break reading;
      }
      if (got === 0) break;
    }
    await reader.delete().catch(() => undefined);
  }
  const bytes = await writer.close();
  step.done(`(${bytes.toLocaleString('en-US')} bytes)`);
  const config = info.config as unknown as Record<string, unknown>;
  return { entry: { name: stream, config, firstSeq, lastSeq, messages, file, consumers }, bytes };
}

/** The stream's settings that carry over; the rest (placement, state flags) belongs to the old server. */
function streamConfig(
  entry: StreamEntry,
  replicas: number | undefined,
): Partial<StreamConfig> & { name: string } {
  const c = entry.config;
  return {
    name: entry.name,
    subjects: c.subjects as string[],
    storage: c.storage as StreamConfig['storage'],
    retention: c.retention as StreamConfig['retention'],
    duplicate_window: c.duplicate_window as number,
    num_replicas: replicas ?? (c.num_replicas as number | undefined) ?? 1,
  };
}

/** NATS subject matching: `*` one token, `>` the rest. */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (i >= s.length || (f[i] !== '*' && f[i] !== s[i])) return false;
  }
  return f.length === s.length;
}

function filtersOf(config: Record<string, unknown>): string[] {
  const many = config.filter_subjects as string[] | undefined;
  const one = config.filter_subject as string | undefined;
  return many?.length ? many : one ? [one] : [];
}

/**
 * Replaces the stream with the dumped messages, in order and with their headers (the event id stays the
 * message id, so a relay that republishes a restored outbox entry is dropped as a duplicate), then puts
 * each durable consumer back where it stood: created as the services create it, then every message up
 * to its recorded position acknowledged. Sequences may differ from the old stream's (a gap or a
 * duplicate is not reproduced); positions are carried over by message, not by number.
 */
export async function restoreStream(
  js: JetStreamClient,
  jsm: JetStreamManager,
  entry: StreamEntry,
  dir: string,
  progress: Progress,
  replicas?: number,
): Promise<{ messages: number }> {
  await jsm.streams.delete(entry.name).catch(() => false);
  await jsm.streams.add(streamConfig(entry, replicas));

  const step = progress.step(`stream ${entry.name}`, entry.messages);
  /** New sequence of each restored message, and its subject, for moving the consumers. */
  const restored: { oldSeq: number; newSeq: number; subject: string }[] = [];
  const inFlight: Promise<void>[] = [];
  const MAX_IN_FLIGHT = 256;
  for await (const text of readLines(join(dir, entry.file))) {
    if (text === '') continue;
    const line = JSON.parse(text) as MessageLine;
    const hdrs = createHeaders();
    for (const [key, values] of line.headers ?? []) for (const value of values) hdrs.append(key, value);
    const record = { oldSeq: line.seq, newSeq: 0, subject: line.subject };
    restored.push(record);
    // Sent in order on one connection, so the broker stores them in this order.
    inFlight.push(
      js
        .publish(line.subject, Buffer.from(line.data, 'base64'), { headers: hdrs, timeout: 30_000 })
        .then((ack) => {
          record.newSeq = ack.seq;
          step.add(1);
        }),
    );
    if (inFlight.length >= MAX_IN_FLIGHT) await Promise.all(inFlight.splice(0));
  }
  await Promise.all(inFlight);
  step.done();

  for (const consumer of entry.consumers)
    await restoreConsumer(js, jsm, entry.name, consumer, restored, progress);
  return { messages: restored.length };
}

async function restoreConsumer(
  js: JetStreamClient,
  jsm: JetStreamManager,
  stream: string,
  consumer: ConsumerEntry,
  restored: { oldSeq: number; newSeq: number; subject: string }[],
  progress: Progress,
): Promise<void> {
  const filters = filtersOf(consumer.config);
  const matches = (subject: string): boolean =>
    filters.length === 0 || filters.some((filter) => subjectMatches(filter, subject));
  // The messages it had applied, as stored now (a duplicate maps to the copy the broker kept).
  const applied = new Set(
    restored.filter((m) => m.oldSeq <= consumer.ackFloor && matches(m.subject)).map((m) => m.newSeq),
  );
  const c = consumer.config;
  const config: Partial<ConsumerConfig> = {
    durable_name: consumer.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ...(c.ack_wait !== undefined ? { ack_wait: c.ack_wait as number } : {}),
    ...(c.max_deliver !== undefined ? { max_deliver: c.max_deliver as number } : {}),
    ...(filters.length === 1 ? { filter_subject: filters[0] } : {}),
    ...(filters.length > 1 ? { filter_subjects: filters } : {}),
  };
  await jsm.consumers.add(stream, config);
  const step = progress.step(
    `consumer ${consumer.durable} (acknowledging what it had applied)`,
    applied.size,
  );
  const reader = await js.consumers.get(stream, consumer.durable);
  let left = applied.size;
  while (left > 0) {
    const batch = await reader.fetch({ max_messages: Math.min(left, 500), expires: 5_000 });
    const acks: Promise<boolean>[] = [];
    let got = 0;
    for await (const msg of batch) {
      got += 1;
      if (!applied.has(msg.seq)) {
        // Not applied before the backup: leave it for the service (redelivered at once).
        msg.nak();
        continue;
      }
      // Acknowledged and confirmed, so the position is stored before the services start.
      acks.push(msg.ackAck());
      left -= 1;
      step.add(1);
    }
    await Promise.all(acks);
    if (got === 0) throw new Error(`consumer ${consumer.durable}: ${left} applied messages never came`);
  }
  step.done();
}
