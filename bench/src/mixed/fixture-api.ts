import { callGateway, expectReply } from '../gateway-api';
import { fill } from '../scale.bench';
import type { TemplateUser } from './user-loader';

/**
 * What the fixture makes through the API, because its effects reach several services through events or it
 * is small: the private group, its projects, group labels, the board and its lists, the template user
 * (token and membership), the template issues with their comments, one alert integration per project and
 * a few alerts through it. Everything large is copied from these afterwards by the bulk loaders.
 */
export interface ApiFixture {
  groupId: number;
  groupPath: string;
  boardId: number;
  /** Group labels; the first two have board lists and are on a fifth of the issues each. */
  labels: string[];
  projects: { id: number; path: string; notifyUrl: string; notifyToken: string }[];
  templateUser: TemplateUser;
  templateIssueIds: number[];
  /** Issues made through the API per project (the templates, in the first project). */
  apiIssues: Map<number, number>;
}

/** Comments on each template issue: a thread of two and a single comment, copied with every issue. */
const TEMPLATE_NOTES = ['First comment', 'A reply in the thread', 'Another comment'];
const ALERTS_PER_PROJECT = 5;
const DEVELOPER = 30;

export async function makeApiFixture(options: {
  gatewayUrl: string;
  rootToken: string;
  projects: number;
  suffix: string;
  connections: number;
  log: (line: string) => void;
}): Promise<ApiFixture> {
  const { suffix, log } = options;
  const call = (method: string, path: string, body?: Record<string, unknown>) =>
    callGateway(options.gatewayUrl, options.rootToken, method, path, body);
  const created = async (path: string, body: Record<string, unknown>) =>
    (await expectReply(call('POST', path, body), 201, `POST ${path}`)).json as Record<string, unknown>;

  const groupPath = `mixed-${suffix}`;
  const group = await created('/groups', { name: groupPath, path: groupPath, visibility: 'private' });
  const groupId = group.id as number;

  const projects: ApiFixture['projects'] = [];
  await fill(options, 'projects', options.projects, async (i) => {
    const path = `p${i}`;
    const project = await created('/projects', {
      name: path,
      path,
      namespace_id: groupId,
      visibility: 'private',
    });
    const id = project.id as number;
    const integration = await created(`/projects/${id}/alert_management/http_integrations`, {
      name: 'mixed',
      active: true,
    });
    const notifyUrl = `${options.gatewayUrl}${new URL(integration.url as string).pathname}`;
    projects.push({ id, path, notifyUrl, notifyToken: integration.token as string });
  });
  projects.sort((a, b) => a.id - b.id);

  const labels = ['Doing', 'Review', 'Bug'].map((name) => `${name}-${suffix}`);
  const labelIds: number[] = [];
  for (const [i, name] of labels.entries()) {
    const label = await created(`/groups/${groupId}/labels`, {
      name,
      color: ['#0000FF', '#00FF00', '#FF0000'][i],
    });
    labelIds.push(label.id as number);
  }
  // The free tier shows every group one board; higher tiers create them.
  const shown = (await expectReply(call('GET', `/groups/${groupId}/boards`), 200, 'GET boards')).json as {
    id: number;
  }[];
  const boardId =
    shown[0]?.id ?? ((await created(`/groups/${groupId}/boards`, { name: 'Mixed' })).id as number);
  for (const labelId of labelIds.slice(0, 2)) {
    await created(`/groups/${groupId}/boards/${boardId}/lists`, { label_id: labelId });
  }

  const username = `mixtpl-${suffix}`;
  const name = `Mixtpl Name ${suffix}`;
  const user = await created('/users', {
    username,
    name,
    email: `${username}@example.com`,
    force_random_password: true,
  });
  const userId = user.id as number;
  await created(`/users/${userId}/personal_access_tokens`, { name: 'mixed', scopes: ['api'] });
  await created(`/groups/${groupId}/members`, { user_id: userId, access_level: DEVELOPER });

  // Template issues: no label, and each of the two board lists' labels (a fifth of the copies each).
  const first = projects[0]!.id;
  const templateIssueIds: number[] = [];
  for (const labelSet of ['', labels[0]!, '', labels[1]!, '']) {
    const issue = await created(`/projects/${first}/issues`, { title: 'Template', labels: labelSet });
    const iid = issue.iid as number;
    const thread = await created(`/projects/${first}/issues/${iid}/discussions`, { body: TEMPLATE_NOTES[0] });
    await created(`/projects/${first}/issues/${iid}/discussions/${String(thread.id)}/notes`, {
      body: TEMPLATE_NOTES[1],
    });
    await created(`/projects/${first}/issues/${iid}/notes`, { body: TEMPLATE_NOTES[2] });
    templateIssueIds.push(issue.id as number);
  }

  await fill(options, 'alerts', projects.length * ALERTS_PER_PROJECT, async (i) => {
    const project = projects[i % projects.length]!;
    const response = await fetch(project.notifyUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${project.notifyToken}` },
      body: JSON.stringify({ title: `Fixture alert ${i}`, fingerprint: `fixture-${i}`, severity: 'high' }),
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`alert notify answered ${response.status}`);
  });
  log(`mixed: group ${groupPath} (id ${groupId}), ${projects.length} projects, board ${boardId}`);
  return {
    groupId,
    groupPath,
    boardId,
    labels,
    projects,
    templateUser: { id: userId, username, name },
    templateIssueIds,
    apiIssues: new Map([[first, templateIssueIds.length]]),
  };
}
