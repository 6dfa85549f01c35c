import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Schema, type Model } from 'mongoose';
import { EVENT_STREAM, type EventEnvelope } from '@gl/contracts';
import {
  createTestDatabase,
  startTestNats,
  testEnv,
  waitFor,
  type TestDatabase,
  type TestNats,
} from '@gl/testing';
import { createLogger } from '../logging';
import { createMetrics, type ServiceMetrics } from '../metrics';
import { connectBus, type Bus } from './bus';
import { deadLetterModel, requeueDeadLetters } from './dead-letters';
import { createEvent } from './events';
import { addOutboxFields, createOutbox, withEvents, type Outbox } from './outbox';
import { UnpublishableEventError } from './payload-limit';

/**
 * The relay against a broker with a small `max_payload` (16 KiB): an event it refuses is set aside after
 * a bounded number of tries, everything else still goes out, and the command puts it back once the broker
 * takes it. Events stored before the broker's limit shrank are written straight into the database, as
 * `withEvents` would now refuse them.
 */
interface Thing {
  _id: number;
  name: string;
}

const SMALL_PAYLOAD = 16 * 1024;
const MAX_ATTEMPTS = 3;
const CLI = resolve(__dirname, '../../../../dist/tools/outbox-dead-letters.js');
const run = promisify(execFile);
const letters = (): string => Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join('');

const eventually = <T>(probe: () => Promise<T | undefined>): Promise<T> => waitFor(probe, 'the relay');

describe('outbox relay: events the broker refuses', () => {
  let nats: TestNats;
  let database: TestDatabase;
  let bus: Bus;
  let metrics: ServiceMetrics;
  let outbox: Outbox;
  let things: Model<Thing>;
  let context: string;
  const logger = createLogger('outbox-dl-test', process.env.TEST_LOG_LEVEL ?? 'silent');

  beforeAll(async () => {
    nats = await startTestNats({ maxPayload: SMALL_PAYLOAD });
    database = await createTestDatabase('outbox_dl');
    bus = await connectBus(nats.url, `outbox-dl-${letters()}`, logger);
    metrics = createMetrics('outbox-dl-test');
    outbox = createOutbox({
      connection: database.connection,
      bus,
      logger,
      metrics,
      maxAttempts: MAX_ATTEMPTS,
      retryBaseMs: 0, // every refused event is due again at once: one drain, one try
    });
    const schema = new Schema<Thing>({ _id: Number, name: String }, { versionKey: false });
    addOutboxFields(schema);
    things = database.connection.model<Thing>('Thing', schema, 'things');
    outbox.register(things);
  }, 60_000);
  beforeEach(() => {
    context = `dl_${letters()}`;
  });
  afterAll(async () => {
    await outbox?.stop();
    await bus?.close();
    await database?.drop();
    await nats?.destroy();
  });

  /** One subject per event (`verb`), so the stream tells which ones arrived and how often. */
  const event = (verb: string, body = ''): EventEnvelope =>
    createEvent(
      { producer: 'outbox-dl-test', correlationId: null },
      { type: `gl.${context}.thing.${verb}`, actor: null, projectId: 5, data: { body } },
    );
  /** Over the `max_payload` of the server the bus is connected to now (a test may have restarted it). */
  const tooLarge = (verb: string): EventEnvelope =>
    event(verb, 'x'.repeat((bus.connection.info?.max_payload ?? SMALL_PAYLOAD) + 1));

  async function published(): Promise<Record<string, number>> {
    const info = await bus.jsm.streams.info(EVENT_STREAM, { subjects_filter: `gl.${context}.>` });
    return Object.fromEntries(
      Object.entries(info.state.subjects ?? {}).map(([subject, n]) => [subject.split('.').pop()!, n]),
    );
  }

  /** A document carrying events stored as they were written before the broker's limit shrank. */
  async function storedThing(id: number, events: EventEnvelope[]): Promise<void> {
    await things.collection.insertOne({
      _id: id as never,
      name: `thing ${id}`,
      _outbox: events.map((e) => JSON.stringify(e)),
      _outboxPending: true,
    });
  }

  /** Entries of the `outbox` collection, as deleteWithEvents leaves them for the relay. */
  async function queued(events: EventEnvelope[], docId: number): Promise<void> {
    const now = Date.now();
    await database.connection.collection('outbox').insertMany(
      events.map((e, index) => ({
        _id: e.id as never,
        payload: JSON.stringify(e),
        state: 'ready',
        check: { model: 'Thing', docId },
        createdAt: new Date(now + index),
      })),
    );
  }

  const cli = (...args: string[]) =>
    run(process.execPath, [CLI, ...args, '--service', 'discussions'], {
      env: { ...process.env, MONGO_URL: testEnv('mongoUrl'), MONGO_DB: database.name },
    });

  const setAsideCount = async (): Promise<number> =>
    (await metrics.outboxSetAside.get()).values.reduce((sum, v) => sum + v.value, 0);
  const deadLetterGauge = async (): Promise<number> =>
    (await metrics.outboxDeadLetters.get()).values[0]!.value;

  it('When an event is larger than the connected broker takes, then the write fails and stores nothing', async () => {
    expect(() => withEvents({ _id: 1, name: 'one' }, [tooLarge('created')])).toThrow(UnpublishableEventError);
    expect(() => withEvents({ _id: 1, name: 'one' }, [event('created', 'fits')])).not.toThrow();
  });

  it('When the broker refuses an event on every try, then it is set aside, the rest flows and the command republishes it', async () => {
    const big = tooLarge('embedded');
    const behindBig = event('behind');
    const other = event('other');
    const bigQueued = tooLarge('queued');
    const behindQueued = event('afterdelete');
    const unrelated = event('unrelated');
    await storedThing(10, [big, behindBig]);
    await things.create(withEvents({ _id: 11, name: 'eleven' }, [other]));
    await queued([bigQueued, behindQueued], 12);
    await queued([unrelated], 13);

    // First try: both large events refused; what waits behind them on the same document waits, the rest goes.
    await outbox.drain();
    expect(await published()).toEqual({ other: 1, unrelated: 1 });
    const stuck = await things.findById(10).lean<Record<string, unknown>>();
    expect(stuck).toMatchObject({
      _outboxAttempts: 1,
      _outboxError: expect.stringMatching(/max_payload/) as string,
    });
    expect(await deadLetterModel(database.connection).countDocuments()).toBe(0);

    for (let attempt = 2; attempt < MAX_ATTEMPTS; attempt++) await outbox.drain();
    expect(await published()).toEqual({ other: 1, unrelated: 1 });

    // The last try sets both aside, and the relay goes on with the events behind them in the same drain.
    await outbox.drain();
    expect(await published()).toEqual({ other: 1, unrelated: 1, behind: 1, afterdelete: 1 });
    const deadLetters = await deadLetterModel(database.connection).find().sort({ _id: 1 }).lean();
    expect(deadLetters.map((d) => d._id).sort()).toEqual([big.id, bigQueued.id].sort());
    for (const letter of deadLetters) {
      expect(letter).toMatchObject({
        attempts: MAX_ATTEMPTS,
        reason: expect.stringMatching(/max_payload/) as string,
      });
      expect(letter.firstFailedAt.getTime()).toBeLessThanOrEqual(letter.setAsideAt.getTime());
    }
    expect(deadLetters.find((d) => d._id === big.id)!.source).toEqual({
      kind: 'embedded',
      model: 'Thing',
      docId: 10,
    });
    expect(JSON.parse(deadLetters.find((d) => d._id === big.id)!.payload)).toEqual(big);
    // Nothing of the refused events is left where the relay would read it again.
    expect(await things.findById(10).lean<Record<string, unknown>>()).toEqual({ _id: 10, name: 'thing 10' });
    expect(await database.connection.collection('outbox').findOne({ _id: bigQueued.id as never })).toBeNull();
    expect(await setAsideCount()).toBe(2);
    expect(await deadLetterGauge()).toBe(2);

    const listed = (await cli('list')).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string });
    expect(listed.map((entry) => entry.id).sort()).toEqual([big.id, bigQueued.id].sort());

    // The cause goes away: the broker comes back taking 1 MiB.
    await nats.start();
    await eventually(async () =>
      bus.isConnected() && (bus.connection.info?.max_payload ?? 0) > SMALL_PAYLOAD ? true : undefined,
    );
    const one = JSON.parse((await cli('republish', '--id', big.id)).stdout) as Record<string, string[]>;
    expect(one).toEqual({ requeued: [big.id], alreadyPublished: [], missing: [] });
    expect(await requeueDeadLetters(database.connection)).toEqual({
      requeued: [bigQueued.id],
      alreadyPublished: [],
      missing: [],
    });
    await eventually(async () => {
      await outbox.drain().catch(() => undefined); // JetStream may still be starting up
      const counts = await published().catch((): Record<string, number> => ({}));
      return counts.embedded === 1 && counts.queued === 1 ? counts : undefined;
    });
    expect(await deadLetterGauge()).toBe(0);

    // Republished twice (a stale copy): JetStream keeps one, the queue records it as published already.
    await deadLetterModel(database.connection).create({
      _id: big.id,
      type: big.type,
      payload: JSON.stringify(big),
      reason: 'stale copy',
      attempts: MAX_ATTEMPTS,
      source: { kind: 'outbox' },
      firstFailedAt: new Date(),
      lastFailedAt: new Date(),
      setAsideAt: new Date(),
    });
    expect(await requeueDeadLetters(database.connection, [big.id])).toEqual({
      requeued: [],
      alreadyPublished: [big.id],
      missing: [],
    });
    await outbox.drain();
    expect(await published()).toEqual({
      other: 1,
      unrelated: 1,
      behind: 1,
      afterdelete: 1,
      embedded: 1,
      queued: 1,
    });
    await expect(cli('republish', '--id', big.id)).rejects.toMatchObject({ code: 1 });
  });

  it('When the command is called wrongly, then it prints its usage and changes nothing', async () => {
    await expect(cli('republish')).rejects.toMatchObject({
      code: 64,
      stderr: expect.stringMatching(/usage/) as string,
    });
    await expect(cli('republish', '--all', '--id', 'x')).rejects.toMatchObject({ code: 64 });
  });

  it('When a refused event waits for its next try, then its document is not read again meanwhile', async () => {
    const patient = createOutbox({
      connection: database.connection,
      bus,
      logger,
      retryBaseMs: 3_600_000,
    });
    patient.register(things);
    await storedThing(20, [tooLarge('waiting')]);
    await patient.drain();
    const after = await things.findById(20).lean<Record<string, unknown>>();
    expect(after).toMatchObject({ _outboxAttempts: 1 });
    await things.create(withEvents({ _id: 21, name: 'twenty-one' }, [event('fresh')]));
    await patient.drain();
    expect(await published()).toEqual({ fresh: 1 });
    expect(await things.findById(20).lean<Record<string, unknown>>()).toMatchObject({ _outboxAttempts: 1 });
    await things.deleteOne({ _id: 20 });
  });

  it('When the broker is down, then nothing is set aside and every event goes out once it is back', async () => {
    await nats.stop();
    await things.create(withEvents({ _id: 30, name: 'thirty' }, [event('during')]));
    for (let i = 0; i < MAX_ATTEMPTS + 1; i++) await expect(outbox.drain()).rejects.toThrow();
    const waiting = await things.findById(30).lean<Record<string, unknown>>();
    expect(waiting).toMatchObject({ _outboxPending: true });
    expect(waiting).not.toHaveProperty('_outboxAttempts');
    expect(await deadLetterModel(database.connection).countDocuments()).toBe(0);

    await nats.start();
    await eventually(async () => {
      await outbox.drain().catch(() => undefined);
      const counts = await published().catch((): Record<string, number> => ({}));
      return counts.during === 1 ? true : undefined;
    });
    expect(await things.findById(30).lean<Record<string, unknown>>()).toEqual({ _id: 30, name: 'thirty' });
  }, 60_000);
});
