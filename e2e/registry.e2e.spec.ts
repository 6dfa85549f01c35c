import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { registryRepositoryEntity, registryTagDetailEntity, registryTagEntity } from '@gl/contracts';
import { waitFor } from '@gl/testing';
import { api, gatewayUrl, gitlab, unique } from './e2e.helpers';

/**
 * A real Docker distribution registry (Debian's docker-registry) on loopback, notifying the gateway, with
 * images pushed by skopeo from OCI layouts written here with chosen `created` times.
 */
const PORT = Number(process.env.GL_TEST_REGISTRY_PORT);
const SECRET = process.env.GL_TEST_REGISTRY_SECRET ?? '';
const REGISTRY = `http://127.0.0.1:${PORT}`;

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

interface Image {
  configDigest: string;
  manifestDigest: string;
  layerSize: number;
}

/** Writes one image into an OCI layout under `ref`: one empty-tar layer and a config with `created`. */
function writeImage(layout: string, ref: string, created: string): Image {
  const blobs = join(layout, 'blobs', 'sha256');
  mkdirSync(blobs, { recursive: true });
  const tar = Buffer.alloc(1024);
  const layer = gzipSync(tar);
  const put = (data: Buffer | string): string => {
    const hex = sha256(data);
    writeFileSync(join(blobs, hex), data);
    return `sha256:${hex}`;
  };
  const layerDigest = put(layer);
  const config = JSON.stringify({
    created,
    architecture: 'amd64',
    os: 'linux',
    config: { Labels: { ref } },
    rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(tar)}`] },
  });
  const configDigest = put(config);
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: {
      mediaType: 'application/vnd.oci.image.config.v1+json',
      digest: configDigest,
      size: config.length,
    },
    layers: [
      { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: layerDigest, size: layer.length },
    ],
  });
  const manifestDigest = put(manifest);
  writeFileSync(join(layout, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(layout, 'index.json'),
    JSON.stringify({
      schemaVersion: 2,
      manifests: [
        {
          mediaType: 'application/vnd.oci.image.manifest.v1+json',
          digest: manifestDigest,
          size: manifest.length,
          annotations: { 'org.opencontainers.image.ref.name': ref },
        },
      ],
    }),
  );
  return { configDigest, manifestDigest, layerSize: layer.length };
}

function push(dir: string, repository: string, tag: string, created: string): Image {
  const layout = join(dir, `layout-${tag}`);
  const image = writeImage(layout, tag, created);
  const run = spawnSync(
    'skopeo',
    [
      '--insecure-policy',
      'copy',
      '--dest-tls-verify=false',
      `oci:${layout}:${tag}`,
      `docker://127.0.0.1:${PORT}/${repository}:${tag}`,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  if (run.status !== 0) throw new Error(`skopeo failed: ${run.stderr}`);
  return image;
}

const eventually = <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> =>
  waitFor(probe, what, timeoutMs, 200);

const manifestStatus = async (repository: string, reference: string): Promise<number> =>
  (
    await fetch(`${REGISTRY}/v2/${repository}/manifests/${reference}`, {
      method: 'HEAD',
      headers: { Accept: 'application/vnd.oci.image.manifest.v1+json' },
    })
  ).status;

describe('container registry end to end (docker-registry + skopeo)', () => {
  let dir: string;
  let registry: ChildProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gl-registry-e2e-'));
    const config = [
      'version: 0.1',
      'log:',
      '  level: warn',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${PORT}`,
      'notifications:',
      '  endpoints:',
      '    - name: gateway',
      `      url: ${gatewayUrl()}/api/v4/container_registry_event/events`,
      '      headers:',
      `        Authorization: [${SECRET}]`,
      '      timeout: 2s',
      '      threshold: 3',
      '      backoff: 500ms',
    ].join('\n');
    writeFileSync(join(dir, 'config.yml'), config);
    registry = spawn('/usr/bin/docker-registry', ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
    await eventually(
      async () => ((await fetch(`${REGISTRY}/v2/`).catch(() => null))?.ok ? true : undefined),
      'docker-registry',
    );
  });

  afterAll(() => {
    registry?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('When images are pushed, then tags appear with registry details, and deletes reach the registry', async () => {
    const root = gitlab();
    const path = unique('reg');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'app', namespaceId: group.id });
    const repository = `${path}/app/web`.toLowerCase();

    const v1 = push(dir, repository, 'v1', '2020-01-01T00:00:00Z');
    const v2 = push(dir, repository, 'v2', '2021-06-01T12:00:00Z');
    push(dir, repository, 'latest', '2022-03-03T03:03:03Z');

    const repos = await eventually(async () => {
      const response = await api(`/projects/${project.id}/registry/repositories?tags=true&tags_count=true`);
      const body = z.array(registryRepositoryEntity).parse(await response.json());
      return body[0]?.tags_count === 3 ? body : undefined;
    }, 'three tags');
    const repo = repos[0]!;
    expect(repo).toMatchObject({
      name: 'web',
      path: repository,
      project_id: project.id,
      location: `127.0.0.1:${PORT}/${repository}`,
    });
    const base = `/projects/${project.id}/registry/repositories/${repo.id}`;

    const detail = registryTagDetailEntity.parse(await (await api(`${base}/tags/v2`)).json());
    expect(detail).toEqual({
      name: 'v2',
      path: `${repository}:v2`,
      location: `127.0.0.1:${PORT}/${repository}:v2`,
      revision: v2.configDigest.slice(7),
      short_revision: v2.configDigest.slice(7, 16),
      digest: v2.manifestDigest,
      created_at: '2021-06-01T12:00:00.000Z',
      total_size: v2.layerSize,
    });
    // The three images are one identical layer under three configs: the repository's size counts it once.
    const sized = await (await api(`/registry/repositories/${repo.id}?size=true`)).json();
    expect(registryRepositoryEntity.parse(sized).size).toBe(v1.layerSize);

    // Bulk delete through the worker process: keep the newest matching one (v2, by image creation time).
    const bulk = await api(`${base}/tags`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name_regex_delete=.*&keep_n=1',
    });
    expect(bulk.status).toBe(202);
    await eventually(async () => {
      const tags = z.array(registryTagEntity).parse(await (await api(`${base}/tags`)).json());
      return tags.map((t) => t.name).join() === 'latest,v2' ? true : undefined;
    }, 'bulk delete');
    expect(await manifestStatus(repository, v1.manifestDigest)).toBe(404);
    expect(await manifestStatus(repository, 'v2')).toBe(200);

    const again = await api(`${base}/tags?name_regex_delete=.*`, { method: 'DELETE' });
    expect(again.status).toBe(400);

    const single = await api(`${base}/tags/v2`, { method: 'DELETE' });
    expect(single.status).toBe(200);
    expect(await manifestStatus(repository, v2.manifestDigest)).toBe(404);

    const removal = await api(base, { method: 'DELETE' });
    expect(removal.status).toBe(202);
    await eventually(async () => {
      const body = (await (await api(`/projects/${project.id}/registry/repositories`)).json()) as unknown[];
      return body.length === 0 ? true : undefined;
    }, 'repository delete');
    expect(await manifestStatus(repository, 'latest')).toBe(404);
    expect((await api(`/registry/repositories/${repo.id}`)).status).toBe(404);
  });

  it('When the registry posts with a wrong secret, then the gateway route answers 401', async () => {
    const response = await fetch(`${gatewayUrl()}/api/v4/container_registry_event/events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/vnd.docker.distribution.events.v1+json',
        authorization: 'nope',
      },
      body: JSON.stringify({ events: [] }),
    });
    expect(response.status).toBe(401);
  });
});
