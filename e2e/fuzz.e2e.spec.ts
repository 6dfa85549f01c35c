import { chooseCases, describeMutation } from './hardening/fuzz/cases';
import { seededRandom } from './hardening/fuzz/payloads';
import { runFuzzCase, type FuzzFinding } from './hardening/fuzz/run';
import { loadOperations, type Operation } from './hardening/openapi';
import { createWorld, type World } from './hardening/world';

/**
 * A bounded fuzzer over every operation of the OpenAPI document: wrong types, missing and unknown fields,
 * 1 MB strings, deep JSON, invalid JSON and UTF-8, hostile ids and encodings, regex bombs, huge and
 * duplicated query parameters, prototype keys, odd auth headers. Every answer must be below 500, come
 * within 5 s, and a refusal must change nothing. Seeded: the seed is printed, `FUZZ_SEED=<n>` replays a
 * run. `npm test` runs a sample (`FUZZ_CASES`, default 150); `npm run fuzz` (FUZZ_FULL=1) runs every case;
 * `FUZZ_ONLY=<regexp>` keeps the operations whose operationId matches.
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const FULL = process.env.FUZZ_FULL === '1';
const SIZE = Number(process.env.FUZZ_CASES ?? 150);
/** `FUZZ_ONLY=<regular expression>`: only the operations whose operationId matches. */
const ONLY = process.env.FUZZ_ONLY ? new RegExp(process.env.FUZZ_ONLY) : null;

describe(`fuzzing every endpoint (FUZZ_SEED=${SEED})`, () => {
  let world: World;
  let operations: Operation[];

  beforeAll(async () => {
    process.stdout.write(`fuzz: FUZZ_SEED=${SEED} ${FULL ? 'full run' : `sample of ${SIZE}`}\n`);
    operations = (await loadOperations()).filter((op) => !ONLY || ONLY.test(op.operationId));
    world = await createWorld(['private']);
  }, 120_000);

  it(
    'When hostile requests hit every operation, then no 5xx, no answer over 5 s, no change on a refusal',
    async () => {
      const random = seededRandom(SEED);
      const cases = chooseCases(operations, random, FULL, SIZE);
      const getPaths = new Set(operations.filter((op) => op.method === 'GET').map((op) => op.path));
      const findings: FuzzFinding[] = [];
      for (const fuzz of cases) {
        const found = await runFuzzCase(world, fuzz, getPaths);
        // Printed as they come: a long `npm run fuzz` shows its findings before it ends.
        for (const f of found) process.stdout.write(`fuzz finding: ${f.request} → ${f.problem}\n`);
        findings.push(...found);
      }
      const operationsHit = new Set(cases.map((c) => c.op.operationId)).size;
      process.stdout.write(`fuzz: ${cases.length} requests over ${operationsHit} operations, seed ${SEED}\n`);
      const report = findings.map((f) => `${f.request}\n    → ${f.problem}`).join('\n');
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
