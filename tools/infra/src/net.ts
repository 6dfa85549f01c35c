import * as net from 'node:net';

/**
 * Asks the kernel for an unused loopback port. Racy by nature (the port is released before the caller binds
 * it), which is acceptable for local dev and tests.
 */
export async function freePort(): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => {
        if (port > 0) resolve(port);
        else reject(new Error('freePort: no port assigned'));
      });
    });
  });
}

/** One connection attempt; true when something accepts on host:port. */
export function tryConnect(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const sock = net.connect({ host, port });
    const done = (ok: boolean): void => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(1000, () => {
      done(false);
    });
    sock.once('connect', () => {
      done(true);
    });
    sock.once('error', () => {
      done(false);
    });
  });
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Resolves once host:port accepts a TCP connection; rejects after timeoutMs. */
export async function waitForTcp(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await tryConnect(host, port)) return;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${host}:${port}`);
    await sleep(100);
  }
}
