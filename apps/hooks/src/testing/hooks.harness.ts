import type { HostLookup } from '@gl/service-kit';
import { namespaceFactory, startServiceHarness, type ServiceHarnessBase } from '@gl/testing';
import { createHooksApp, type HooksConfig } from '../app';
import type { DiscussionsSource } from '../payloads/discussions-source';

export const { projectNamespace, groupNamespace } = namespaceFactory({
  firstId: 7000 + Math.floor(Math.random() * 1000) * 100,
});

/**
 * Names the tests use, answered without the machine's resolver: public ones, one that hides a private
 * address, one that resolves to loopback. Anything else does not resolve.
 */
export const TEST_HOSTS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'other.example.com': ['93.184.215.15'],
  'internal.example.com': ['93.184.215.14', '10.0.0.5'],
  'loop.example.com': ['127.0.0.1'],
};

export const testLookup: HostLookup = async (host) => {
  const addresses = TEST_HOSTS[host.toLowerCase()];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

export interface HooksHarness extends ServiceHarnessBase<HooksConfig> {
  instance: ReturnType<typeof createHooksApp>;
}

/** `source` answers the payloads' reads from discussions (none: reads fail, deliveries are not queued). */
export async function startHooksHarness(
  config: Partial<HooksConfig> = {},
  source?: DiscussionsSource,
): Promise<HooksHarness> {
  return startServiceHarness<ReturnType<typeof createHooksApp>, HooksConfig>({
    service: 'hooks',
    config,
    createApp: (runtime) => createHooksApp(runtime, testLookup, source),
    caller: { lenientJson: true },
  });
}
