import { randomBytes } from 'node:crypto';
import { Schema, type Model } from 'mongoose';
import { EVENT_STREAM, type EventEnvelope } from '@gl/contracts';
import { createTestRuntime, waitFor, type TestRuntime } from '@gl/testing';
import { startConsumer, PoisonMessageError, type RunningConsumer } from './consumer';
import { createEvent } from './events';
import { addOutboxFields, pushEvents, withEvents } from './outbox';

interface Thing {
  _id: number;
  name: string;
}

const letters = (): string => Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join('');

const eventually = <T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> =>
  waitFor(probe, 'the relay', timeoutMs, 50);

describe('outbox and bus', () => {
  let runtime: TestRuntime;
  let things: Model<Thing>;
  let context: string;
  const consumers: RunningConsumer[] = [];
  const origin = { producer: 'outbox-test', correlationId: 'req-1' };

  beforeAll(async () => {
    runtime = await createTestRuntime('outbox');
    const schema = new Schema<Thing>({ _id: Number, name: String }, { versionKey: false });
    addOutboxFields(schema);
    things = runtime.connection.model<Thing>('Thing', schema, 'things');
    runtime.outbox.register(things);
  });
  beforeEach(() => {
    context = `test_${letters()}`;
  });
  afterAll(async () => {
    for (const consumer of consumers) await consumer.stop();
    await runtime.close();
  });

  const event = (verb: string, data: Record<string, unknown> = {}): EventEnvelope =>
    createEvent(origin, {
      type: `gl.${context}.thing.${verb}`,
      actor: { id: 1, username: 'root', name: 'Root' },
      projectId: 5,
      data,
    });

  async function collect(
    durable: string,
    handle?: (e: EventEnvelope) => Promise<void>,
  ): Promise<EventEnvelope[]> {
    const seen: EventEnvelope[] = [];
    consumers.push(
      await startConsumer(
        runtime.bus,
        {
          durable,
          filterSubjects: [`gl.${context}.>`],
          handle: async (e) => {
            await handle?.(e);
            seen.push(e);
          },
        },
        runtime.logger,
      ),
    );
    return seen;
  }

  async function streamCount(): Promise<number> {
    const info = await runtime.bus.jsm.streams.info(EVENT_STREAM, { subjects_filter: `gl.${context}.>` });
    return Object.values(info.state.subjects ?? {}).reduce((sum, n) => sum + n, 0);
  }

  it('When a document is written with events, then the relay publishes the exact envelope once', async () => {
    const created = event('created', { thingId: 1 });
    await things.create(withEvents({ _id: 1, name: 'one' }, [created]));
    const seen = await collect(`d_${context}`);
    await runtime.outbox.drain();
    await eventually(async () => (seen.length === 1 ? true : undefined));
    expect(seen[0]).toEqual(created);
    const doc = await things.findById(1).lean<Record<string, unknown>>();
    expect(doc).toEqual({ _id: 1, name: 'one' });
  });

  it('When an update pushes events, then they are published in order after the earlier ones', async () => {
    const seen = await collect(`d_${context}`);
    const first = event('created');
    await things.create(withEvents({ _id: 2, name: 'two' }, [first]));
    const renamed = event('updated', { name: 'zwei' });
    const closed = event('closed');
    await things.updateOne({ _id: 2 }, pushEvents({ $set: { name: 'zwei' } }, [renamed, closed]));
    await runtime.outbox.drain();
    await eventually(async () => (seen.length === 3 ? true : undefined));
    expect(seen.map((e) => e.id)).toEqual([first.id, renamed.id, closed.id]);
  });

  it('When the same event is published twice, then JetStream keeps one copy (msgID = event id)', async () => {
    const once = event('created');
    await runtime.bus.publish(once);
    await runtime.bus.publish(once);
    expect(await streamCount()).toBe(1);
  });

  it('When recent events are replayed after a broker restart, then nothing is duplicated', async () => {
    await things.create(withEvents({ _id: 3, name: 'three' }, [event('created')]));
    await runtime.outbox.drain();
    const before = await streamCount();
    expect(await runtime.outbox.replayRecent()).toBeGreaterThan(0);
    expect(await streamCount()).toBe(before);
  });

  it('When a document is deleted with events, then its still-carried events go out first, then the delete', async () => {
    const seen = await collect(`d_${context}`);
    const created = event('created');
    await things.create(withEvents({ _id: 4, name: 'four' }, [created]));
    const destroyed = event('destroyed');
    expect(await runtime.outbox.deleteWithEvents(things, 4, [destroyed])).toBe(true);
    await runtime.outbox.drain();
    await eventually(async () => (seen.length === 2 ? true : undefined));
    expect(seen.map((e) => e.id)).toEqual([created.id, destroyed.id]);
    expect(await things.exists({ _id: 4 })).toBeNull();
  });

  it('When the relay publishes a carried event while the document is being deleted, then the delete still succeeds', async () => {
    const seen = await collect(`d_${context}`);
    const updated = event('updated');
    await things.create(withEvents({ _id: 7, name: 'seven' }, [updated]));
    // What the relay records right after publishing, before it clears the document's own copy.
    await runtime.connection.collection('outbox').insertOne({
      _id: updated.id as never,
      payload: JSON.stringify(updated),
      state: 'published',
      publishedAt: new Date(),
      createdAt: new Date(),
    });
    await runtime.bus.publish(updated);
    const destroyed = event('destroyed');
    expect(await runtime.outbox.deleteWithEvents(things, 7, [destroyed])).toBe(true);
    await runtime.outbox.drain();
    await eventually(async () => (seen.length === 2 ? true : undefined));
    expect(seen.map((e) => e.id)).toEqual([updated.id, destroyed.id]);
    const entry = await runtime.connection.collection('outbox').findOne({ _id: updated.id as never });
    expect(entry?.state).toBe('published');
  });

  it('When deleting a missing document, then no event is published', async () => {
    expect(await runtime.outbox.deleteWithEvents(things, 404, [event('destroyed')])).toBe(false);
    await runtime.outbox.drain();
    expect(await streamCount()).toBe(0);
  });

  it('When a process died between recording a delete and deleting, then the relay decides by looking', async () => {
    const entries = runtime.connection.collection('outbox');
    const stale = new Date(Date.now() - 60_000);
    await things.create({ _id: 5, name: 'survivor' });
    const notDeleted = event('destroyed', { thingId: 5 });
    const deleted = event('destroyed', { thingId: 6 });
    await entries.insertMany([
      {
        _id: notDeleted.id as never,
        payload: JSON.stringify(notDeleted),
        state: 'pending',
        check: { model: 'Thing', docId: 5 },
        createdAt: stale,
      },
      {
        _id: deleted.id as never,
        payload: JSON.stringify(deleted),
        state: 'pending',
        check: { model: 'Thing', docId: 6 },
        createdAt: stale,
      },
    ]);
    const seen = await collect(`d_${context}`);
    await runtime.outbox.drain();
    await eventually(async () => (seen.length === 1 ? true : undefined));
    expect(seen[0]!.id).toBe(deleted.id);
    expect(await entries.findOne({ _id: notDeleted.id as never })).toBeNull();
  });

  it('When a handler fails transiently, then the event is redelivered and handled once', async () => {
    let attempts = 0;
    const effects = new Set<string>();
    const seen = await collect(`d_${context}`, async (e) => {
      attempts++;
      if (attempts === 1) throw new Error('database briefly unavailable');
      effects.add(e.id);
    });
    await runtime.bus.publish(event('created'));
    await eventually(async () => (seen.length === 1 ? true : undefined), 15_000);
    expect(attempts).toBe(2);
    expect(effects.size).toBe(1);
  });

  it('When a message is not a valid envelope or is poison, then it is terminated and the next one handled', async () => {
    const seen = await collect(`d_${context}`, async (e) => {
      if (e.data.poison) throw new PoisonMessageError('cannot ever handle this');
    });
    await runtime.bus.js.publish(`gl.${context}.thing.created`, 'not json at all');
    await runtime.bus.js.publish(`gl.${context}.thing.created`, JSON.stringify({ id: 'nope' }));
    await runtime.bus.publish(event('created', { poison: true }));
    const good = event('created');
    await runtime.bus.publish(good);
    await eventually(async () => (seen.some((e) => e.id === good.id) ? true : undefined));
    // The handler records the event before its ack (and the terms before them) reach the server.
    const info = await eventually(async () => {
      const current = await runtime.bus.jsm.consumers.info(EVENT_STREAM, `d_${context}`);
      return current.num_ack_pending === 0 && current.num_pending === 0 ? current : undefined;
    });
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
    expect(info.delivered.consumer_seq).toBe(4);
    expect(seen.map((e) => e.id)).toEqual([good.id]);
  });
});
