import { startBareServer } from './bare-server';
import { formatCpu, type CpuSnapshot } from './cpu';
import { measure, type LoadOptions } from './load';
import { formatRatio, formatTable, ratio, type Ratio, type TargetResult } from './report';
import type { Scenario } from './scenario';
import { createGroup, signedContextFor, type BenchGroup } from './setup';

/**
 * The same small GET (`/groups/:id/boards`) measured side by side in one run on (a) a bare Express 5 server,
 * (b) the boards service directly with a signed internal context, (c) through the gateway with the root
 * token: what the service costs over Express, and what the gateway adds over the service.
 */
export interface GatewayBenchResult {
  group: BenchGroup;
  results: TargetResult[];
  ratios: Ratio[];
  /** CPU milliseconds per request of each process, for the service direct (b) and through the gateway (c). */
  cpuMsPerRequest: Record<string, Record<string, number>>;
}

async function probe(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const body = (await response.text()).replace(/\s+/g, ' ');
  return `${response.status} ${body.length > 100 ? `${body.slice(0, 100)}…` : body}`;
}

export function gatewayScenario(benchFile: string): Scenario<GatewayBenchResult> {
  return {
    name: 'gateway',
    inDefaultRun: true,
    async run(context) {
      const { stack, log } = context;
      const bare = await startBareServer(benchFile);
      context.onTeardown('bare Express server', async () => {
        if (bare.child.exitCode !== null || bare.child.signalCode !== null) return;
        const exited = new Promise<void>((r) => bare.child.once('exit', () => r()));
        bare.child.kill('SIGTERM');
        await exited;
      });

      const group = await createGroup(stack.gatewayUrl, stack.rootToken);
      log(`gateway: group ${group.path} (id ${group.id}) created with POST /api/v4/groups`);
      // The stack's default external URL; the gateway puts it in every context it signs.
      const externalUrl = `http://localhost:${new URL(stack.gatewayUrl).port}`;
      const path = `/api/v4/groups/${group.id}/boards`;
      const load: LoadOptions = {
        connections: context.connections,
        durationSeconds: context.durationSeconds,
        warmupSeconds: context.warmupSeconds,
      };
      const validForMs = (context.warmupSeconds + context.durationSeconds + 60) * 1_000;
      const targets: {
        key: TargetResult['key'];
        label: string;
        url: string;
        headers: () => Record<string, string>;
      }[] = [
        { key: 'a', label: 'bare Express 5', url: `${bare.url}${path}`, headers: () => ({}) },
        {
          key: 'b',
          label: 'boards service direct',
          url: `${stack.serviceUrls.boards}${path}`,
          // Signed just before its run and valid through it, like the gateway's per-request header.
          headers: () => ({
            'x-gl-context': signedContextFor(context.contextSecret, externalUrl, group, validForMs),
            'x-request-id': 'bench',
          }),
        },
        {
          key: 'c',
          label: 'gateway → boards',
          url: `${stack.gatewayUrl}${path}`,
          headers: () => ({ 'PRIVATE-TOKEN': stack.rootToken }),
        },
      ];

      const results: TargetResult[] = [];
      const cpuMsPerRequest: Record<string, Record<string, number>> = {};
      for (const target of targets) {
        const headers = target.headers();
        const probed = await probe(target.url, headers);
        log(`gateway: (${target.key}) ${target.label}: GET ${target.url} → ${probed}`);
        let from: CpuSnapshot | undefined;
        let to: CpuSnapshot | undefined;
        const onMeasured = {
          start: () => (from = context.cpu.snapshot()),
          end: () => (to = context.cpu.snapshot()),
        };
        const measurement = await measure(target.url, headers, { ...load, onMeasured });
        log(`gateway: (${target.key}) ${Math.round(measurement.requestsPerSecond)} req/s`);
        if (target.key !== 'a' && from && to) {
          const used = context.cpu.perRequest(from, to, measurement.completed);
          cpuMsPerRequest[target.label] = used;
          log(`gateway: (${target.key}) CPU ms per request: ${formatCpu(used)}`);
        }
        results.push({ key: target.key, label: target.label, url: target.url, probe: probed, measurement });
        await new Promise((r) => setTimeout(r, 500));
      }
      const [a, b, c] = results.map((r) => r.measurement) as [
        TargetResult['measurement'],
        TargetResult['measurement'],
        TargetResult['measurement'],
      ];
      const ratios = [ratio('c/b', 'gateway cost', c, b), ratio('b/a', 'service vs bare Express', b, a)];
      log(`gateway:\n${formatTable(results)}\n${ratios.map(formatRatio).join('\n')}`);
      return {
        result: { group, results, ratios, cpuMsPerRequest },
        rows: [
          {
            path: 'GET /groups/:id/boards, boards service direct',
            measure: 'req/s',
            value: b.requestsPerSecond,
            unit: 'req/s',
            goal: 'min',
            target: 2_000,
            before: '683',
          },
          {
            path: 'GET /groups/:id/boards, through the gateway',
            measure: '× direct',
            value: c.requestsPerSecond / b.requestsPerSecond,
            unit: '×',
            goal: 'min',
            target: 0.7,
          },
        ],
      };
    },
  };
}
