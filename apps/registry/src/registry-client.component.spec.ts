import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRegistryClient } from './registry-client';
import { STRANGER, useHarness } from '@gl/testing';
import { digestOf, startRegistryHarness } from './testing/registry.harness';
import { deleteTags } from './registry.service';

const CONFIG_DIGEST = `sha256:${'c'.repeat(64)}`;
const BASE_LAYER = `sha256:${'b'.repeat(64)}`;

/** A minimal distribution API: one manifest per digest, its config blob, and manifest deletes. */
function fakeRegistry(): Promise<{
  url: string;
  deleted: string[];
  failDeletes: Set<string>;
  close(): Promise<void>;
}> {
  const deleted: string[] = [];
  const failDeletes = new Set<string>();
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '';
    if (req.method === 'GET' && url.includes('/manifests/')) {
      const reference = url.split('/manifests/')[1]!;
      if (reference === 'missing') {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, {
        'content-type': 'application/vnd.oci.image.manifest.v1+json',
        'docker-content-digest': reference.startsWith('sha256:') ? reference : digestOf(reference),
      });
      res.end(
        JSON.stringify({
          schemaVersion: 2,
          config: { digest: CONFIG_DIGEST },
          // A base layer every image shares, and one of the image's own.
          layers: [
            { digest: BASE_LAYER, size: 100 },
            { digest: digestOf(`layer:${reference}`), size: 23 },
          ],
        }),
      );
      return;
    }
    if (req.method === 'GET' && url.includes('/blobs/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ created: '2019-01-06T16:49:51.272+00:00' }));
      return;
    }
    if (req.method === 'DELETE' && url.includes('/manifests/')) {
      const digest = url.split('/manifests/')[1]!;
      if (failDeletes.has(digest)) {
        res.writeHead(500).end();
        return;
      }
      deleted.push(digest);
      res.writeHead(202).end();
      return;
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        deleted,
        failDeletes,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

describe('registry API client and registry-side deletes', () => {
  let fake: Awaited<ReturnType<typeof fakeRegistry>>;
  const h = useHarness(async () => {
    fake = await fakeRegistry();
    return startRegistryHarness({ REGISTRY_API_URL: fake.url });
  });
  afterAll(() => fake.close());

  it('When a tag is read, then revision, created time and layer sizes come from manifest and config', async () => {
    const client = createRegistryClient(`${fake.url}/`);
    expect(await client.tagDetails('g/p', 'sha256:abc')).toEqual({
      digest: 'sha256:abc',
      revision: 'c'.repeat(64),
      createdAt: new Date('2019-01-06T16:49:51.272Z'),
      totalSize: 123,
      layers: [
        { digest: BASE_LAYER, size: 100 },
        { digest: digestOf('layer:sha256:abc'), size: 23 },
      ],
    });
    expect(await client.tagDetails('g/p', 'missing')).toBeNull();
  });

  it('When a push is notified with a registry configured, then the tag detail shows the registry’s data', async () => {
    const p = await h.seedProject('client-group/client');
    const id = await h.pushTag(p.fullPath, 'v1', digestOf('v1'));
    const reply = await h.call('GET', `/projects/${p.id}/registry/repositories/${id}/tags/v1`, { ns: p.ns });
    expect(reply.body).toMatchObject({
      revision: 'c'.repeat(64),
      short_revision: 'ccccccccc',
      digest: digestOf('v1'),
      created_at: '2019-01-06T16:49:51.272Z',
      total_size: 123,
    });
  });

  it('When size=true, then each layer blob counts once, however many images share it', async () => {
    const p = await h.seedProject('client-group/sized', { visibility: 'public' });
    const id = await h.pushTag(p.fullPath, 'v1', digestOf('sized-v1'));
    await h.pushTag(p.fullPath, 'v2', digestOf('sized-v2'));
    await h.pushTag(p.fullPath, 'again', digestOf('sized-v2'));
    const reply = await h.call('GET', `/registry/repositories/${id}?size=true`, { as: STRANGER });
    // The shared base (100) once and each image's own layer (23): not 3 × 123.
    expect(reply.body).toMatchObject({ id, size: 146 });
  });

  it('When a tag is deleted, then its manifest is deleted on the registry by digest', async () => {
    const p = await h.seedProject('client-group/deletes');
    const id = await h.pushTag(p.fullPath, 'v1', digestOf('del-v1'));
    const reply = await h.call('DELETE', `/projects/${p.id}/registry/repositories/${id}/tags/v1`, {
      ns: p.ns,
    });
    expect(reply.status).toBe(200);
    expect(fake.deleted).toContain(digestOf('del-v1'));
  });

  it('When the registry refuses the delete, then 400 and the tag stays', async () => {
    const p = await h.seedProject('client-group/refused');
    const id = await h.pushTag(p.fullPath, 'v1', digestOf('refused'));
    fake.failDeletes.add(digestOf('refused'));
    const reply = await h.call('DELETE', `/projects/${p.id}/registry/repositories/${id}/tags/v1`, {
      ns: p.ns,
    });
    expect(reply.body).toEqual({ message: '400 Bad request' });
    expect(await h.models.tags.countDocuments({ repositoryId: id })).toBe(1);
  });

  it('When another remaining tag shares the digest, then the manifest stays on the registry', async () => {
    const p = await h.seedProject('client-group/shared');
    const shared = digestOf('shared-digest');
    const id = await h.pushTag(p.fullPath, 'a', shared);
    await h.pushTag(p.fullPath, 'b', shared);
    const deps = { stores: h.stores, logger: h.runtime.logger };
    const client = createRegistryClient(fake.url);
    const outcome = await deleteTags({ ...deps, client }, { _id: id, path: p.fullPath }, ['a']);
    expect(outcome).toEqual({ deleted: 1, failed: 0 });
    expect(fake.deleted).not.toContain(shared);
    await deleteTags({ ...deps, client }, { _id: id, path: p.fullPath }, ['b', 'gone']);
    expect(fake.deleted.filter((d) => d === shared)).toHaveLength(1);
  });
});
