import { chooseCases, describeMutation } from './hardening/fuzz/cases';
import { runLanes, type FuzzProgress } from './hardening/fuzz/lanes';
import { seededRandom } from './hardening/fuzz/payloads';
import type { Lane } from './hardening/fuzz/run';
import { pool } from './hardening/http';
import { loadOperations, type Operation } from './hardening/openapi';
import { createWorld } from './hardening/world';

/**
 * A bounded fuzzer over every operation of the OpenAPI document: wrong types, missing and unknown fields,
 * 1 MB strings, deep JSON, invalid JSON and UTF-8, hostile ids and encodings, regex bombs, huge and
 * duplicated query parameters, prototype keys, odd auth headers. Every answer must be below 500, come
 * within 5 s, and a refusal must change nothing. Seeded: the seed is printed, `FUZZ_SEED=<n>` replays a
 * run. `npm test` runs a sample (`FUZZ_CASES`, default 150); `npm run fuzz` (FUZZ_FULL=1) runs every case;
 * `FUZZ_ONLY=<regexp>` keeps the operations whose operationId matches. The cases run in `FUZZ_LANES`
 * concurrent lanes, each in a world of its own (hardening/fuzz/lanes.ts).
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const FULL = process.env.FUZZ_FULL === '1';
const SIZE = Number(process.env.FUZZ_CASES ?? 150);
/** `FUZZ_ONLY=<regular expression>`: only the operations whose operationId matches. */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : null;
/**
 * Lanes: 6 keep two cores busy (a case mostly waits for its read-back to settle) and the full run's ~20k
 * cases within 13–20 minutes; more add queueing, not speed, and stretch every answer towards the 5 s
 * bound. The sample needs few (each lane's world takes seconds to make).
 */
const LANES = Number(process.env.FUZZ_LANES ?? (FULL ? 6 : 2));
const PROGRESS_MS = 30_000;

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function progressLine(p: FuzzProgress): string {
  const elapsed = performance.now() - p.startedAt;
  const left = p.done > 0 ? ` (~${duration((elapsed / p.done) * (p.total - p.done))} left)` : '';
  return (
    `fuzz: ${p.done}/${p.total} cases, ${p.findings} findings, ${duration(elapsed)}${left}, ` +
    `slowest answer ${Math.round(p.slowest.ms)} ms (${p.slowest.request})\n`
  );
}

describe(`fuzzing every endpoint (FUZZ_SEED=${SEED})`, () => {
  let lanes: Lane[];
  let operations: Operation[];

  beforeAll(async () => {
    process.stdout.write(
      `fuzz: FUZZ_SEED=${SEED} ${FULL ? 'full run' : `sample of ${SIZE}`}, ${LANES} lanes\n`,
    );
    const all = await loadOperations();
    operations = all.filter((op) => !ONLY || ONLY.test(op.operationId));
    // Read-backs may use any GET of the document, whichever operations FUZZ_ONLY keeps.
    const getPaths = new Set(all.filter((op) => op.method === 'GET').map((op) => op.path));
    // Two worlds at a time: each makes users (password hashing) and a dozen resources.
    const worlds = await pool(
      Array.from({ length: LANES }, () => null),
      2,
      () => createWorld(['private']),
    );
    lanes = worlds.map((world) => ({ world, getPaths, visibility: 'private', settled: null }));
  }, 300_000);

  it(
    'When hostile requests hit every operation, then no 5xx, no answer over 5 s, no change on a refusal',
    async () => {
      const cases = chooseCases(operations, seededRandom(SEED), FULL, SIZE);
      const { findings, progress } = await runLanes(cases, lanes, {
        onFinding: (f) => process.stdout.write(`fuzz finding: ${f.request} → ${f.problem}\n`),
        onProgress: (p) => process.stdout.write(progressLine(p)),
        progressMs: PROGRESS_MS,
        renew: () => createWorld(['private']),
      });
      const operationsHit = new Set(cases.map((c) => c.op.operationId)).size;
      process.stdout.write(
        `fuzz summary: ${cases.length} cases, ${operationsHit} operations, ${findings.length} findings, ` +
          `${duration(performance.now() - progress.startedAt)}, seed ${SEED} (FUZZ_SEED=${SEED}; ${LANES} lanes, ` +
          `slowest answer ${Math.round(progress.slowest.ms)} ms)\n`,
      );
      const report = findings
        .map((f) => `${f.request}\n    → ${f.problem}`)
        .sort()
        .join('\n');
      expect(report ? `FUZZ_SEED=${SEED}\n${report}` : '').toBe('');
    },
    FULL ? 24 * 3_600_000 : 600_000,
  );

  it('When the same seed is drawn twice, then the same requests are chosen', () => {
    const draw = () =>
      chooseCases(operations, seededRandom(SEED), false, 50).map(
        (c) => `${c.op.operationId} ${describeMutation(c.mutation)}`,
      );
    expect(draw()).toEqual(draw());
  });
});
