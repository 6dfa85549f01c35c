import * as fs from 'node:fs';
import * as net from 'node:net';

/** Ports this process has handed out: two services started side by side never get the same one. */
const handedOut = new Set<number>();

/** The kernel's range for outgoing connections' local ports (Linux), or null where it cannot be read. */
function ephemeralRange(): [number, number] | null {
  try {
    const [low, high] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return low && high ? [low, high] : null;
  } catch {
    return null;
  }
}

function listenOn(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(null));
    srv.listen(port, '127.0.0.1', () => {
      const addr = srv.address();
      const bound = typeof addr === 'object' && addr !== null ? addr.port : null;
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * An unused loopback port for a child process to listen on. Racy by nature (the port is released before the
 * child binds it), so it is drawn below the kernel's ephemeral range: a port from that range can be taken
 * in the meantime as the local end of any outgoing connection (a database pool opening sockets), and the
 * child then dies with EADDRINUSE. Falls back to a kernel-chosen port when no such port is free.
 */
export async function freePort(): Promise<number> {
  const range = ephemeralRange();
  const high = range ? range[0] - 1 : 0;
  const low = 10_000;
  for (let attempt = 0; high > low && attempt < 50; attempt++) {
    const candidate = low + Math.floor(Math.random() * (high - low + 1));
    if (handedOut.has(candidate)) continue;
    if ((await listenOn(candidate)) === candidate) {
      handedOut.add(candidate);
      return candidate;
    }
  }
  const port = await listenOn(0);
  if (port === null || port === 0) throw new Error('freePort: no port assigned');
  handedOut.add(port);
  return port;
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
