import { hostname } from 'node:os';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { isDuplicateKeyError } from './connection';

/**
 * One step of a service database's history. `up` must be idempotent: a process killed after `up` and before
 * the step is recorded runs it again at its next start. Steps read and write the raw collections
 * (`connection.collection(...)`), not the current models: a model describes today's shape, a step
 * describes the shape it found and the one it leaves.
 */
export interface Migration {
  /** 1, 2, 3…: applied in this order, each once per database. */
  version: number;
  /** What the step does, recorded with it. */
  name: string;
  up(connection: Connection, logger: Logger): Promise<void>;
}

export interface MigrationRunOptions {
  logger: Logger;
  /** Who holds the lock (recorded with each step): `<service>@<host>:<pid>` by default. */
  owner?: string;
  /** How long the lock stays valid without a renewal: a crashed holder's lock is taken over after this. */
  leaseMs?: number;
  /** How often a waiting process looks at the lock again. */
  pollMs?: number;
  /** Give up waiting for another process's lock after this long. */
  waitMs?: number;
}

export interface MigrationRunResult {
  /** Versions this process applied (empty when the database was current or another process did it). */
  applied: number[];
}

/** Recorded steps and the lock live in the service's own database. */
export const MIGRATIONS_COLLECTION = 'migrations';
const LOCK_ID = 'lock';
const stepId = (version: number): string => `v${version}`;

interface LockDoc {
  _id: string;
  owner: string;
  until: Date;
}

interface StepDoc {
  _id: string;
  version: number;
  name: string;
  appliedAt: Date;
  ms: number;
  by: string;
}

/** Versions must be 1, 2, 3… in order: a gap or a repeat is a mistake in the release, caught at start. */
function checkSequence(migrations: readonly Migration[]): void {
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1)
      throw new Error(
        `migration "${migration.name}" has version ${migration.version}; expected ${index + 1} (versions are 1, 2, 3… in order)`,
      );
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Brings the database to the newest version before the service serves (runService calls it between
 * building the app and starting consumers, relay and HTTP server). Replicas may start together: one takes
 * the lock document (a unique insert, or a compare-and-set on an expired lease), applies what is missing
 * and records each step; the others wait for the lock to go and find everything recorded.
 */
export async function runMigrations(
  connection: Connection,
  migrations: readonly Migration[],
  options: MigrationRunOptions,
): Promise<MigrationRunResult> {
  checkSequence(migrations);
  const { logger } = options;
  const owner = options.owner ?? `${hostname()}:${process.pid}`;
  const leaseMs = options.leaseMs ?? 60_000;
  const pollMs = options.pollMs ?? 250;
  const waitMs = options.waitMs ?? 10 * 60_000;
  const collection = connection.collection<StepDoc | LockDoc>(MIGRATIONS_COLLECTION);
  const steps = connection.collection<StepDoc>(MIGRATIONS_COLLECTION);
  const locks = connection.collection<LockDoc>(MIGRATIONS_COLLECTION);
  const latest = migrations.length;

  async function recorded(): Promise<Set<number>> {
    const docs = await steps.find({ _id: { $in: migrations.map((m) => stepId(m.version)) } }).toArray();
    return new Set(docs.map((doc) => doc.version));
  }
  /** A step past ours means a newer release ran here (a rollback): say so, and run without its steps. */
  async function warnIfNewer(): Promise<void> {
    const newer = await steps.findOne({ _id: stepId(latest + 1) });
    if (newer)
      logger.warn(
        { recorded: newer.version, known: latest, step: newer.name },
        'database was migrated by a newer release; this build runs on it without its newer steps',
      );
  }

  // Fast path for every start after the first: nothing to do, no lock taken. Every query here reads by
  // `_id`, so it needs no index of its own on any server.
  if ((await recorded()).size === latest) {
    await warnIfNewer();
    return { applied: [] };
  }

  async function tryLock(): Promise<boolean> {
    const until = new Date(Date.now() + leaseMs);
    try {
      await locks.insertOne({ _id: LOCK_ID, owner, until });
      return true;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    // A holder that died keeps the lock only until its lease runs out; then one waiter takes it over.
    const taken = await locks.findOneAndUpdate(
      { _id: LOCK_ID, until: { $lt: new Date() } },
      { $set: { owner, until } },
      { returnDocument: 'after' },
    );
    return taken?.owner === owner;
  }

  const waitStarted = Date.now();
  let waitLogged = false;
  while (!(await tryLock())) {
    if (Date.now() - waitStarted > waitMs)
      throw new Error(`migrations: lock held by another process for over ${waitMs} ms`);
    if (!waitLogged) {
      const holder = await locks.findOne({ _id: LOCK_ID });
      logger.info({ holder: holder?.owner }, 'migrations: waiting for another process to finish them');
      waitLogged = true;
    }
    await sleep(pollMs);
  }

  // Renew the lease while steps run, so a long step is not mistaken for a dead holder.
  const renew = setInterval(
    () => {
      void locks
        .updateOne({ _id: LOCK_ID, owner }, { $set: { until: new Date(Date.now() + leaseMs) } })
        .catch((err: unknown) => logger.warn({ err }, 'migrations: lock renewal failed'));
    },
    Math.max(1_000, Math.floor(leaseMs / 3)),
  );
  renew.unref();
  const applied: number[] = [];
  try {
    // Read again under the lock: whoever held it before may have applied everything.
    const done = await recorded();
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      const started = Date.now();
      logger.info({ version: migration.version, migration: migration.name }, 'migration: applying');
      await migration.up(connection, logger);
      const ms = Date.now() - started;
      await collection.updateOne(
        { _id: stepId(migration.version) },
        {
          $setOnInsert: {
            version: migration.version,
            name: migration.name,
            appliedAt: new Date(),
            ms,
            by: owner,
          },
        },
        { upsert: true },
      );
      applied.push(migration.version);
      logger.info({ version: migration.version, migration: migration.name, ms }, 'migration: applied');
    }
  } finally {
    clearInterval(renew);
    await locks.deleteOne({ _id: LOCK_ID, owner }).catch(() => undefined);
  }
  return { applied };
}

/**
 * Version 1 of every service: the indexes its models declare, created and recorded as a step, giving later
 * steps a known starting point to drop or replace an index from. Mongoose starts building them when a model
 * compiles (autoIndex, on in connectMongo); the step waits for that build rather than sending a second,
 * concurrent build of the same indexes (after which one end-to-end run's scan report showed an outbox query
 * reading its whole table; the cause is not confirmed), and builds them itself only where autoIndex is off.
 */
export function declaredIndexesMigration(version = 1): Migration {
  return {
    version,
    name: 'create the indexes the models declare',
    async up(connection) {
      const connectionAutoIndex = (connection.config as { autoIndex?: boolean }).autoIndex;
      for (const model of Object.values(connection.models)) {
        await model.init();
        const autoIndex = model.schema.get('autoIndex') ?? connectionAutoIndex ?? true;
        if (!autoIndex) await model.createIndexes();
      }
    },
  };
}

/**
 * A step that reports what it did: `run` returns what it counted (or dropped), logged once it is done as
 * `{ ms, ...report }` under `done` (`ms`: how long the step took).
 */
export function reportingMigration(
  version: number,
  name: string,
  done: string,
  run: (connection: Connection, logger: Logger) => Promise<Record<string, unknown>>,
): Migration {
  return {
    version,
    name,
    async up(connection, logger) {
      const started = Date.now();
      const report = await run(connection, logger);
      logger.info({ ms: Date.now() - started, ...report }, done);
    },
  };
}
