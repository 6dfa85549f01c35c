import type { ServiceName } from './route-table';

/** The gateway is ready when its own storage and bus are, and every service it routes to says it is. */
export async function servicesReady(urls: Record<ServiceName, string>): Promise<Record<string, boolean>> {
  const entries = await Promise.all(
    Object.entries(urls).map(async ([name, url]) => {
      try {
        const response = await fetch(`${url}/-/readiness`, { signal: AbortSignal.timeout(2_000) });
        return [name, response.ok] as const;
      } catch {
        return [name, false] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}
