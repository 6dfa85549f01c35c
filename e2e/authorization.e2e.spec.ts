import { call, eventually } from './hardening/http';
import { cellsOf, runCells, type Finding } from './hardening/matrix';
import { fillPath, loadOperations, type Operation } from './hardening/openapi';
import { RULES } from './hardening/rules';
import { CALLER_NAMES, VISIBILITIES } from './hardening/sight';
import { createWorld, type World } from './hardening/world';

/**
 * GitLab's authorization rules, cell by cell: every operation of the gateway's OpenAPI document × nine
 * callers (anonymous, a signed-in outsider, Guest … Owner of the target's group, an administrator, the
 * Owner's read_api token) × private, internal and public targets, each with the resources the operation
 * addresses. The expected answer of every cell comes from the rules table (e2e/hardening/rules), which
 * cites GitLab's source for each rule.
 */
function report(findings: Finding[]): string {
  const byOperation = new Map<string, string[]>();
  for (const f of findings) {
    const op = f.cell.split(' ')[0]!;
    byOperation.set(op, [
      ...(byOperation.get(op) ?? []),
      `  ${f.cell}: expected ${f.expected}, got ${f.actual}`,
    ]);
  }
  return [...byOperation.entries()].map(([op, lines]) => `${op}\n${lines.join('\n')}`).join('\n');
}

describe('authorization matrix', () => {
  let world: World;
  let operations: Operation[];

  beforeAll(async () => {
    operations = await loadOperations();
    world = await createWorld();
    // Events reach the activity log through the bus: wait until each project's log has the owner's
    // merge request and internal note, so the list checks see a settled log.
    for (const visibility of VISIBILITIES) {
      const target = world.targets[visibility];
      await eventually(
        async () =>
          (await call('GET', `/projects/${target.project.id}/events?per_page=100`, { token: world.root }))
            .body as { target_type?: string; note?: { id?: number } }[],
        (events) =>
          Array.isArray(events) &&
          events.some((e) => e.target_type === 'MergeRequest') &&
          events.some((e) => e.note?.id === target.resources.internalThread.noteId),
        60_000,
      );
    }
  }, 180_000);

  it('When the OpenAPI document lists an operation, then the rules table has a rule for it', () => {
    const missing = operations.map((op) => op.operationId).filter((id) => !RULES[id]);
    expect(missing).toEqual([]);
  });

  it('When the rules table names an operation, then the OpenAPI document still has it', () => {
    const known = new Set(operations.map((op) => op.operationId));
    expect(Object.keys(RULES).filter((id) => !known.has(id))).toEqual([]);
  });

  it('When every caller reads every resource of every visibility, then each gets what GitLab gives', async () => {
    const cells = cellsOf(operations.filter((op) => op.method === 'GET'));
    const findings = await runCells(world, cells);
    process.stdout.write(`authorization: ${cells.length} read cells, ${findings.length} findings\n`);
    expect(report(findings)).toBe('');
  }, 900_000);

  it('When every caller writes to every target, then GitLab refuses exactly whom it refuses', async () => {
    const cells = cellsOf(operations.filter((op) => op.method !== 'GET'));
    const findings = await runCells(world, cells);
    process.stdout.write(`authorization: ${cells.length} write cells, ${findings.length} findings\n`);
    expect(report(findings)).toBe('');
  }, 900_000);

  it('When a user token, not the shared secret, posts registry notifications, then 401 for everyone', async () => {
    const answers = await Promise.all(
      CALLER_NAMES.map(async (caller) => {
        const reply = await call('POST', '/container_registry_event/events', {
          token: world.tokens[caller],
          headers: { 'Content-Type': 'application/vnd.docker.distribution.events.v1+json' },
          body: JSON.stringify({ events: [] }),
        });
        return `${caller}: ${reply.status}`;
      }),
    );
    expect(answers).toEqual(CALLER_NAMES.map((caller) => `${caller}: 401`));
  });

  it('When an alert is posted with a user token instead of the integration token, then 401', async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    for (const visibility of VISIBILITIES) {
      const target = world.targets[visibility];
      const { url, token } = target.resources.integration;
      const path = new URL(url).pathname;
      for (const caller of CALLER_NAMES) {
        const reply = await call('POST', path, {
          outsideApi: true,
          token: world.tokens[caller],
          body: { title: 'not from the monitoring tool' },
        });
        answers.push(`${visibility} ${caller}: ${reply.status}`);
        expected.push(`${visibility} ${caller}: 401`);
      }
      const prometheus = fillPath('/{namespace}/{project}/prometheus/alerts/notify.json', {
        namespace: target.group.fullPath,
        project: target.project.path,
      }).replace(encodeURIComponent(target.group.fullPath), target.group.fullPath);
      const owner = await call('POST', prometheus, {
        outsideApi: true,
        token: world.tokens.owner,
        body: { version: '4', status: 'firing', alerts: [] },
      });
      answers.push(
        `${visibility} prometheus as owner: ${[401, 403].includes(owner.status) ? 'refused' : owner.status}`,
      );
      expected.push(`${visibility} prometheus as owner: refused`);
      const right = await call('POST', path, {
        outsideApi: true,
        headers: { Authorization: `Bearer ${token}` },
        body: { title: 'from the monitoring tool' },
      });
      answers.push(`${visibility} integration token: ${right.status}`);
      expected.push(`${visibility} integration token: 200`);
    }
    expect(answers).toEqual(expected);
  });
});
