import { startGatewayHarness, ROOT_TOKEN, type GatewayHarness } from '../testing/gateway.harness';
import { makeUser } from '../testing/identity.fixtures';

/** The backup's write fence is an administrator's tool: who may raise, read and lift it. */
describe('gateway write fence: who may use it', () => {
  let gw: GatewayHarness;

  beforeAll(async () => {
    gw = await startGatewayHarness({ name: 'gateway-write-fence' });
  });
  afterAll(() => gw.close());

  const fence = (method: string, path: string, token: string | null) => gw.call(path, { method, token });

  it.each([
    ['POST', '/-/write-fence'],
    ['GET', '/-/write-fence'],
    ['DELETE', '/-/write-fence/some-id'],
  ])('When %s %s comes without a token, then 401 and no fence', async (method, path) => {
    expect((await fence(method, path, null)).status).toBe(401);
    const state = await fence('GET', '/-/write-fence', ROOT_TOKEN);
    expect(await state.json()).toMatchObject({ held: false, id: null });
  });

  it('When a user who is not an administrator, or an admin token without the api scope, asks, then 403', async () => {
    const user = await makeUser(gw.models);
    const readOnlyAdmin = await makeUser(gw.models, { admin: true, scopes: ['read_api'] });
    for (const token of [user.token, readOnlyAdmin.token]) {
      expect((await fence('POST', '/-/write-fence', token)).status).toBe(403);
      expect((await fence('GET', '/-/write-fence', token)).status).toBe(403);
    }
  });

  it('When an administrator raises a fence, then a second is refused until the first is lifted', async () => {
    const raised = await fence('POST', '/-/write-fence?ttl_ms=5000', ROOT_TOKEN);
    expect(raised.status).toBe(200);
    const { id } = (await raised.json()) as { id: string };
    expect((await fence('POST', '/-/write-fence?ttl_ms=5000', ROOT_TOKEN)).status).toBe(409);
    expect((await fence('DELETE', `/-/write-fence/${id}`, ROOT_TOKEN)).status).toBe(200);
    expect((await fence('DELETE', `/-/write-fence/${id}`, ROOT_TOKEN)).status).toBe(404);
  });
});
