import { formatCpu, type CpuSampler } from './cpu';
import type { Scenario, SummaryRow } from './scenario';
import { percentile, roundTenth } from './stats';

/**
 * `npm run bench -- --scenario alerts [--duration N] [--connections N]`: sustained alert ingestion through
 * the gateway, as monitoring tools post it (POST {project}/alerts/notify/{name}/{id}.json, Bearer token):
 * (1) new alerts (a distinct fingerprint per request), (2) grouping (one fingerprint, the event counter
 * rises). Each phase runs N concurrent senders for the duration; reports alerts/s and p50/p99 latency.
 */
export interface AlertsBenchOptions {
  gatewayUrl: string;
  rootToken: string;
  durationSeconds: number;
  connections: number;
  log: (line: string) => void;
  cpu?: CpuSampler;
}

interface Phase {
  requests: number;
  errors: number;
  seconds: number;
  alertsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU milliseconds per request of each process over the phase. */
  cpuMsPerRequest?: Record<string, number>;
}

export interface AlertsBenchResult {
  newAlerts: Phase;
  grouping: Phase;
  groupedEventCount: number;
}

async function api(
  options: AlertsBenchOptions,
  method: string,
  path: string,
  body?: Record<string, unknown>,
): Promise<unknown> {
  const response = await fetch(`${options.gatewayUrl}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': options.rootToken, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}`);
  return response.json();
}

async function phase(
  options: AlertsBenchOptions,
  url: string,
  token: string,
  payload: (n: number) => Record<string, unknown>,
): Promise<Phase> {
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const cpuBefore = options.cpu?.snapshot();
  const started = performance.now();
  const end = started + options.durationSeconds * 1000;
  const sender = async (): Promise<void> => {
    while (performance.now() < end) {
      const n = sent++;
      const t0 = performance.now();
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(payload(n)),
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      if (response.status === 200) latencies.push(performance.now() - t0);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: options.connections }, sender));
  const seconds = (performance.now() - started) / 1000;
  const cpuMsPerRequest =
    cpuBefore && options.cpu ? options.cpu.perRequest(cpuBefore, options.cpu.snapshot(), sent) : undefined;
  if (cpuMsPerRequest) options.log(`alerts: CPU ms per request: ${formatCpu(cpuMsPerRequest)}`);
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length + errors,
    errors,
    seconds: roundTenth(seconds),
    alertsPerSecond: roundTenth(latencies.length / seconds),
    p50Ms: roundTenth(percentile(latencies, 50)),
    p99Ms: roundTenth(percentile(latencies, 99)),
    cpuMsPerRequest,
  };
}

export async function runAlertsBench(options: AlertsBenchOptions): Promise<AlertsBenchResult> {
  const name = `alerts-bench-${Date.now().toString(36)}`;
  const project = (await api(options, 'POST', '/projects', { name, path: name })) as { id: number };
  const integration = (await api(
    options,
    'POST',
    `/projects/${project.id}/alert_management/http_integrations`,
    {
      name: 'bench',
      active: true,
    },
  )) as { url: string; token: string };
  const url = `${options.gatewayUrl}${new URL(integration.url).pathname}`;
  options.log(`project ${name} (id ${project.id}), notify URL ${url}`);

  const newAlerts = await phase(options, url, integration.token, (n) => ({
    title: `Bench alert ${n}`,
    severity: 'high',
    fingerprint: `bench-${n}`,
    service: 'bench',
  }));
  options.log(`new alerts: ${newAlerts.alertsPerSecond}/s, p99 ${newAlerts.p99Ms} ms`);
  const grouping = await phase(options, url, integration.token, () => ({
    title: 'Bench grouped',
    fingerprint: 'bench-grouped',
  }));
  options.log(`grouping: ${grouping.alertsPerSecond}/s, p99 ${grouping.p99Ms} ms`);
  const grouped = (await api(
    options,
    'GET',
    `/projects/${project.id}/alert_management/alerts?search=Bench%20grouped`,
  )) as { event_count: number }[];
  return { newAlerts, grouping, groupedEventCount: grouped[0]?.event_count ?? 0 };
}

function phaseRows(label: string, phase: Phase, target: number, before: string): SummaryRow[] {
  return [
    {
      path: `alert ingestion through the gateway, ${label}`,
      measure: 'throughput',
      value: phase.alertsPerSecond,
      unit: 'alerts/s',
      goal: 'min',
      target,
      before,
    },
    {
      path: `alert ingestion through the gateway, ${label}`,
      measure: 'p99',
      value: phase.p99Ms,
      unit: 'ms',
      goal: 'max',
      target: 250,
    },
  ];
}

export const alertsScenario: Scenario<AlertsBenchResult> = {
  name: 'alerts',
  inDefaultRun: true,
  async run(context) {
    const result = await runAlertsBench({
      gatewayUrl: context.stack.gatewayUrl,
      rootToken: context.stack.rootToken,
      durationSeconds: context.durationSeconds,
      connections: context.connections,
      log: context.log,
      cpu: context.cpu,
    });
    return {
      result,
      rows: [
        ...phaseRows('new alerts', result.newAlerts, 400, '32'),
        ...phaseRows('grouped (one fingerprint)', result.grouping, 800, '9.9'),
      ],
    };
  },
};
