import { IDENTITY_ENDPOINTS } from '@gl/contracts';
import { routedOperations } from '@gl/service-kit';
import { createGatewayApp, type GatewayDeps } from '../app';
import { createIdentityRouters } from './identity.routers';
import type { IdentityRouterDeps } from './router-deps';

describe('identity routers', () => {
  it('register a handler with route() for every identity contract', () => {
    // Building the routers only wires handlers; nothing here is called, so the dependencies are stubs.
    const routers = createIdentityRouters({ externalUrl: 'http://gitlab.test' } as IdentityRouterDeps);
    const routed = routedOperations(routers);
    const missing = IDENTITY_ENDPOINTS.map((e) => e.operationId).filter((id) => !routed.has(id));
    expect(missing).toEqual([]);
  });

  it('are required by the gateway app, which refuses to start without them', () => {
    expect(() => createGatewayApp({ identityRouters: [] } as unknown as GatewayDeps)).toThrow(
      'gateway: no handler registered for GET /user (getCurrentUser)',
    );
  });
});
