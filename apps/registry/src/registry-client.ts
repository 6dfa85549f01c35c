/**
 * The Docker distribution API calls the service makes when REGISTRY_API_URL is set: manifest and config
 * blob for tag details, manifest delete by digest.
 */
const MANIFEST_TYPES = [
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

export interface RegistryTagDetails {
  digest: string;
  revision: string | null;
  createdAt: Date | null;
  totalSize: number | null;
  /** Layers with a digest and a size; null when the manifest lists none or leaves one out. */
  layers: { digest: string; size: number }[] | null;
}

export interface RegistryClient {
  tagDetails(repository: string, reference: string): Promise<RegistryTagDetails | null>;
  /** Deletes a manifest; true when gone (404 counts as gone). */
  deleteManifest(repository: string, digest: string): Promise<boolean>;
}

interface Manifest {
  config?: { digest?: string };
  layers?: { digest?: string; size?: number }[];
}

function layersOf(manifest: Manifest): RegistryTagDetails['layers'] {
  const layers: { digest: string; size: number }[] = [];
  for (const layer of manifest.layers ?? []) {
    if (typeof layer.digest !== 'string' || typeof layer.size !== 'number') return null;
    layers.push({ digest: layer.digest, size: layer.size });
  }
  return layers.length > 0 ? layers : null;
}

export function createRegistryClient(baseUrl: string): RegistryClient {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async tagDetails(repository, reference) {
      const response = await fetch(`${base}/v2/${repository}/manifests/${reference}`, {
        headers: { Accept: MANIFEST_TYPES },
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) return null;
      const digest = response.headers.get('docker-content-digest') ?? reference;
      const manifest = (await response.json()) as Manifest;
      const configDigest = manifest.config?.digest ?? null;
      let createdAt: Date | null = null;
      if (configDigest) {
        const blob = await fetch(`${base}/v2/${repository}/blobs/${configDigest}`, {
          signal: AbortSignal.timeout(10_000),
        });
        if (blob.ok) {
          const config = (await blob.json()) as { created?: string };
          const parsed = config.created ? new Date(config.created) : null;
          createdAt = parsed && !Number.isNaN(parsed.getTime()) ? parsed : null;
        }
      }
      return {
        digest,
        revision: configDigest ? configDigest.replace(/^sha256:/, '') : null,
        createdAt,
        totalSize: manifest.layers ? manifest.layers.reduce((sum, l) => sum + (l.size ?? 0), 0) : null,
        layers: layersOf(manifest),
      };
    },
    async deleteManifest(repository, digest) {
      const response = await fetch(`${base}/v2/${repository}/manifests/${digest}`, {
        method: 'DELETE',
        signal: AbortSignal.timeout(10_000),
      });
      return response.ok || response.status === 404;
    },
  };
}
