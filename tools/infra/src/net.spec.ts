import * as fs from 'node:fs';
import * as net from 'node:net';
import { freePort } from './net';

describe('freePort', () => {
  it('When many ports are drawn, then each is distinct, below the outgoing-connection range, and bindable', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 30; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    const low = Number(
      fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    for (const port of ports) expect(port).toBeLessThan(low);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
