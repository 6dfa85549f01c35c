import { spawn } from 'node:child_process';
import { DEFAULT_BODY_LIMIT } from '@gl/service-kit';
import { wireExchange } from '@gl/testing';
import { api, gatewayUrl, rootToken, unique } from './e2e.helpers';
import { loadOperations } from './hardening/openapi';
import { pool } from './hardening/http';

const TOO_LARGE = { message: '413 Request Entity Too Large' };

/** curl as users run it: status and body, with the headers and data given. */
function curl(args: string[]): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-s', '-o', '-', '-w', '\n%{http_code}', ...args]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const split = out.lastIndexOf('\n');
      const text = out.slice(0, split);
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: keep the text so a failure shows it
      }
      resolve({ status: Number(out.slice(split + 1)), body });
    });
  });
}

function curlWithExpect(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const args = ['-X', method, '-H', `PRIVATE-TOKEN: ${rootToken()}`, '-H', 'Expect: 100-continue'];
  if (body !== undefined)
    args.push('-H', 'Content-Type: application/json', '--data-binary', JSON.stringify(body));
  return curl([...args, `${gatewayUrl()}/api/v4${path}`]);
}

/**
 * What real HTTP stacks put on the wire, through the whole stack: `Expect: 100-continue` (curl sends it by
 * itself for large bodies, .NET and PHP clients for every body) and bodies over the limit, on every service.
 */
describe('the wire as clients write it', () => {
  let group: { id: number };
  let project: { id: number };

  beforeAll(async () => {
    const path = unique('wire-');
    group = (await (
      await api('/groups', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: path, path, visibility: 'private' }),
      })
    ).json()) as { id: number };
    project = (await (
      await api('/projects', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: 'shop', namespace_id: group.id }),
      })
    ).json()) as { id: number };
  });

  it('When curl sends Expect: 100-continue to each service, then each answers for root as without it', async () => {
    const issue = await curlWithExpect('POST', `/projects/${project.id}/issues`, { title: 'expecting' });
    expect(issue).toMatchObject({ status: 201, body: { title: 'expecting' } });
    const iid = (issue.body as { iid: number }).iid;
    expect(
      await curlWithExpect('POST', `/projects/${project.id}/issues/${iid}/notes`, { body: 'continue' }),
    ).toMatchObject({ status: 201, body: { body: 'continue' } });
    expect(await curlWithExpect('POST', `/groups/${group.id}/boards`, { name: 'wire' })).toMatchObject({
      status: 201,
      body: { name: 'wire' },
    });
    expect(
      await curlWithExpect('PUT', `/projects/${project.id}/notification_settings`, { level: 'watch' }),
    ).toMatchObject({ status: 200, body: { level: 'watch' } });
    for (const path of [
      `/projects/${project.id}/alert_management/http_integrations`,
      `/projects/${project.id}/events`,
      `/projects/${project.id}/registry/repositories`,
    ]) {
      expect({ path, ...(await curlWithExpect('GET', path, {})) }).toMatchObject({ path, status: 200 });
    }
  });

  it('When a body over the limit is declared to any operation on a raw socket, then 413 and the connection closes', async () => {
    const operations = await loadOperations();
    const answers = await pool(operations, 8, async (op) => {
      // Any value fits a parameter: the edge refuses the body before routing, and must for every route.
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
        name === 'id' ? String(project.id) : '1',
      );
      const exchange = await wireExchange(
        gatewayUrl(),
        [
          `${op.method} ${op.outsideApi ? '' : '/api/v4'}${path} HTTP/1.1`,
          'Host: x',
          `PRIVATE-TOKEN: ${rootToken()}`,
          'Content-Type: application/json',
          `Content-Length: ${DEFAULT_BODY_LIMIT + 1}`,
          '',
          '',
        ].join('\r\n'),
        { body: Buffer.alloc(64 * 1024, 'x') },
      );
      return {
        operation: `${op.method} ${op.path}`,
        status: exchange.response.status,
        body: exchange.response.body,
        connection: exchange.response.headers.connection,
      };
    });
    const expected = { status: 413, body: JSON.stringify(TOO_LARGE), connection: 'close' };
    expect(answers.filter((a) => a.status !== 413 || a.connection !== 'close')).toEqual([]);
    expect(answers.map(({ operation: _, ...rest }) => rest)).toEqual(answers.map(() => expected));
  });
});
