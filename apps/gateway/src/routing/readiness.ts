async function ready(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/-/readiness`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The gateway is ready when its own storage and bus are, and every replica of every service it routes to
 * says it is. A service with one replica is reported under its name (`events`), replicas of one with
 * several under `events#1`, `events#2`, … so a failing check names the process.
 */
export async function servicesReady(
  upstreams: Readonly<Record<string, readonly string[]>>,
): Promise<Record<string, boolean>> {
  const checks = Object.entries(upstreams).flatMap(([name, urls]) =>
    urls.map(async (url, i) => [urls.length === 1 ? name : `${name}#${i + 1}`, await ready(url)] as const),
  );
  return Object.fromEntries(await Promise.all(checks));
}
