import { ENDPOINTS } from './endpoints';
import { VERSIONED_READS, VERSIONED_SERVICES, WRITES_REACHING_ACROSS } from './resource-versions';

const byId = new Map(ENDPOINTS.map((endpoint) => [endpoint.operationId, endpoint]));

describe('resource versions', () => {
  it('When a read is versioned, then it is a namespaced GET a service serves', () => {
    for (const id of VERSIONED_READS) {
      const endpoint = byId.get(id);
      expect({ id, method: endpoint?.method }).toEqual({ id, method: 'GET' });
      expect({ id, namespaced: /^\/(groups|projects)\/\{id\}/.test(endpoint!.path) }).toEqual({
        id,
        namespaced: true,
      });
      expect(endpoint!.service).not.toBe('gateway');
    }
  });

  it('When a service answers no versioned read, then it is not among the services that bump', () => {
    expect([...VERSIONED_SERVICES].sort()).toEqual(['alerts', 'boards', 'discussions', 'events', 'registry']);
  });

  it('When a write reaches across projects, then it is a project write a service serves', () => {
    for (const id of WRITES_REACHING_ACROSS) {
      const endpoint = byId.get(id);
      expect({ id, get: endpoint?.method === 'GET' }).toEqual({ id, get: false });
      expect(endpoint!.path.startsWith('/projects/{id}')).toBe(true);
    }
  });
});
