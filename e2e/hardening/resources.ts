import { randomUUID } from 'node:crypto';
import { rootToken, unique } from '../e2e.helpers';
import { call, must } from './http';
import type { Visibility } from './sight';

/**
 * One of every resource the endpoints address, in one group and its project, made by the Owner (root where
 * only an administrator may): the ordinary ones every caller who sees the target may read, and the
 * sensitive ones GitLab hides from some of them (a private snippet, a confidential epic, an internal note).
 */
export type NoteableKind = 'issue' | 'merge_request' | 'snippet' | 'epic' | 'commit';

export interface Thread {
  discussionId: string;
  noteId: number;
}

export interface Resources {
  sha: string;
  issueIid: number;
  /** The issue's global id (board card moves address issues by id). */
  issueId: number;
  mergeRequestIid: number;
  snippetId: number;
  privateSnippetId: number;
  epic: { id: number; iid: number };
  confidentialEpic: { id: number; iid: number };
  /** The noteable id each discussions path takes: iid for issues and MRs, id for snippets and epics, sha. */
  noteableIds: Record<NoteableKind, number | string>;
  threads: Record<NoteableKind, Thread>;
  /** An internal note (`internal: true`) in a thread of its own on the issue. */
  internalThread: Thread;
  labelId: number;
  /** One of the project's own labels (project label updates, deletions and subscriptions address it). */
  projectLabel: { id: number; name: string };
  milestoneId: number;
  /** One of the project's own milestones (project milestone reads and updates address it). */
  projectMilestoneId: number;
  boardId: number;
  listId: number;
  /** A board of the project, with one list of a project label (project board endpoints address them). */
  projectBoardId: number;
  projectListId: number;
  integration: { id: number; token: string; url: string };
  alertIid: number;
  registry: { repositoryId: number; tag: string };
  /** A user who is a direct member of the project (project member endpoints address them). */
  projectMemberId: number;
  /** A webhook of the project and one of the group (hook endpoints address them). */
  projectHookId: number;
  groupHookId: number;
  /** A delivery logged for each hook (the resend routes address one). */
  projectHookLogId: number;
  groupHookLogId: number;
}

export interface ResourceContext {
  visibility: Visibility;
  group: { id: number; fullPath: string };
  project: { id: number; pathWithNamespace: string; path: string };
  owner: { id: number; token: string };
  bystander: { id: number };
}

export function commitBody(branch: string, start?: string): Record<string, unknown> {
  const file = unique('file-');
  return {
    branch,
    commit_message: `Add ${file}`,
    actions: [{ action: 'create', file_path: `${file}.md`, content: 'hello' }],
    ...(start ? { start_branch: start } : {}),
  };
}

/** Starts a thread on a noteable and returns its discussion and first note. */
export async function startThread(
  base: string,
  token: string,
  extra: Record<string, unknown> = {},
): Promise<Thread> {
  const discussion = await must<{ id: string; notes: { id: number }[] }>('POST', `${base}/discussions`, {
    token,
    body: { body: `thread ${unique('t')}`, ...extra },
  });
  return { discussionId: discussion.id, noteId: discussion.notes[0]!.id };
}

export function noteableBase(ctx: ResourceContext, kind: NoteableKind, id: number | string): string {
  const p = `/projects/${ctx.project.id}`;
  switch (kind) {
    case 'issue':
      return `${p}/issues/${id}`;
    case 'merge_request':
      return `${p}/merge_requests/${id}`;
    case 'snippet':
      return `${p}/snippets/${id}`;
    case 'epic':
      return `/groups/${ctx.group.id}/epics/${id}`;
    case 'commit':
      return `${p}/repository/commits/${id}`;
  }
}

/** What the Docker registry posts after a push (docker/distribution notifications). */
export async function pushImage(repository: string, tag: string): Promise<void> {
  const secret = process.env.GL_TEST_REGISTRY_SECRET ?? '';
  const digest = `sha256:${randomUUID().replace(/-/g, '').padEnd(64, '0')}`;
  const event = {
    id: randomUUID(),
    timestamp: new Date().toISOString(),
    action: 'push',
    target: {
      mediaType: 'application/vnd.docker.distribution.manifest.v2+json',
      size: 528,
      digest,
      length: 528,
      repository,
      url: `http://registry.invalid/v2/${repository}/manifests/${digest}`,
      tag,
    },
    request: {
      id: randomUUID(),
      addr: '127.0.0.1',
      host: 'registry.invalid',
      method: 'PUT',
      useragent: 'matrix',
    },
    actor: {},
    source: { addr: 'registry:5000', instanceID: randomUUID() },
  };
  const reply = await call('POST', '/container_registry_event/events', {
    headers: {
      'Content-Type': 'application/vnd.docker.distribution.events.v1+json',
      Authorization: secret,
    },
    body: JSON.stringify({ events: [event] }),
  });
  if (reply.status !== 200) throw new Error(`registry notification → ${reply.status} ${reply.text}`);
}

/** The id of the repository at `path` once the registry service has recorded the push (any page). */
export async function repositoryId(projectId: number, path: string): Promise<number> {
  for (let page = 1; page <= 100; page++) {
    const list = await must<{ id: number; path: string }[]>(
      'GET',
      `/projects/${projectId}/registry/repositories?per_page=100&page=${page}`,
      { token: rootToken() },
    );
    const found = list.find((r) => r.path === path);
    if (found) return found.id;
    if (list.length < 100) break;
  }
  throw new Error(`registry repository ${path} not recorded`);
}

/** The hook's first logged delivery, queued from the bus a moment after its event. */
async function firstLogId(path: string, token: string): Promise<number> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const [log] = await must<{ id: number }[]>('GET', path, { token });
    if (log) return log.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no delivery logged at ${path}`);
}

export async function createResources(ctx: ResourceContext): Promise<Resources> {
  const token = ctx.owner.token;
  const p = `/projects/${ctx.project.id}`;
  const g = `/groups/${ctx.group.id}`;
  // Before the activity the matrix looks for in the owner's events (one page of 100, oldest first).
  const projectMilestone = await must<{ id: number }>('POST', `${p}/milestones`, {
    token,
    body: { title: unique('pmilestone-') },
  });
  const commit = await must<{ id: string }>('POST', `${p}/repository/commits`, {
    token,
    body: commitBody('main'),
  });
  await must('POST', `${p}/repository/commits`, { token, body: commitBody('feature', 'main') });
  const issue = await must<{ id: number; iid: number }>('POST', `${p}/issues`, {
    token,
    body: { title: 'Matrix issue' },
  });
  const mr = await must<{ iid: number }>('POST', `${p}/merge_requests`, {
    token,
    body: { source_branch: 'feature', target_branch: 'main', title: 'Matrix merge request' },
  });
  const snippet = (visibility: Visibility) =>
    must<{ id: number }>('POST', `${p}/snippets`, {
      token,
      body: { title: `${visibility} snippet`, file_name: 'a.txt', content: 'x', visibility },
    });
  const ordinarySnippet = await snippet(ctx.visibility);
  const privateSnippet = await snippet('private');
  const epic = (confidential: boolean) =>
    must<{ id: number; iid: number }>('POST', `${g}/epics`, {
      token,
      body: { title: confidential ? 'Confidential epic' : 'Matrix epic', confidential },
    });
  const ordinaryEpic = await epic(false);
  const confidentialEpic = await epic(true);
  const noteableIds: Record<NoteableKind, number | string> = {
    issue: issue.iid,
    merge_request: mr.iid,
    snippet: ordinarySnippet.id,
    epic: ordinaryEpic.id,
    commit: commit.id,
  };
  const threads = {} as Record<NoteableKind, Thread>;
  for (const kind of Object.keys(noteableIds) as NoteableKind[]) {
    threads[kind] = await startThread(noteableBase(ctx, kind, noteableIds[kind]), token);
  }
  const internalThread = await startThread(noteableBase(ctx, 'issue', issue.iid), token, { internal: true });

  const label = await must<{ id: number }>('POST', `${g}/labels`, {
    token,
    body: { name: unique('label-'), color: '#ff0000' },
  });
  const listLabel = await must<{ id: number }>('POST', `${g}/labels`, {
    token,
    body: { name: unique('list-'), color: '#00ff00' },
  });
  const projectLabel = await must<{ id: number; name: string }>('POST', `${p}/labels`, {
    token,
    body: { name: unique('plabel-'), color: '#0000ff' },
  });
  const milestone = await must<{ id: number }>('POST', `${g}/milestones`, {
    token,
    body: { title: unique('milestone-') },
  });
  const board = await must<{ id: number }>('POST', `${g}/boards`, {
    token,
    body: { name: unique('board-') },
  });
  const list = await must<{ id: number }>('POST', `${g}/boards/${board.id}/lists`, {
    token,
    body: { label_id: listLabel.id },
  });
  const projectBoard = await must<{ id: number }>('POST', `${p}/boards`, {
    token,
    body: { name: unique('pboard-') },
  });
  const projectList = await must<{ id: number }>('POST', `${p}/boards/${projectBoard.id}/lists`, {
    token,
    body: { label_id: projectLabel.id },
  });

  const integration = await must<{ id: number; token: string; url: string }>(
    'POST',
    `${p}/alert_management/http_integrations`,
    { token, body: { name: unique('hook-'), active: true } },
  );
  const notified = await call('POST', new URL(integration.url).pathname, {
    outsideApi: true,
    headers: { Authorization: `Bearer ${integration.token}` },
    body: { title: 'Matrix alert', fingerprint: unique('fp') },
  });
  if (notified.status !== 200) throw new Error(`alert notify → ${notified.status} ${notified.text}`);
  const alerts = notified.body as { iid: number }[];
  await must('PUT', `${p}/error_tracking/settings`, {
    token,
    body: { active: true, integrated: true },
  });
  await must('PUT', `${p}/alert_management/prometheus_integration`, {
    token,
    body: { active: false, api_url: 'https://prometheus.example.com' },
  });

  const projectHook = await must<{ id: number }>('POST', `${p}/hooks`, {
    token,
    body: { url: 'https://hooks.example.com/matrix', note_events: true },
  });
  const groupHook = await must<{ id: number }>('POST', `/groups/${ctx.group.id}/hooks`, {
    token,
    body: { url: 'https://hooks.example.com/matrix', note_events: true },
  });
  // One comment logs a delivery for both hooks (group hooks get their projects' events).
  await must('POST', `${p}/issues/${issue.iid}/notes`, { token, body: { body: 'Matrix hook note' } });
  const [projectHookLogId, groupHookLogId] = await Promise.all([
    firstLogId(`${p}/hooks/${projectHook.id}/events`, token),
    firstLogId(`${g}/hooks/${groupHook.id}/events`, token),
  ]);

  await pushImage(ctx.project.pathWithNamespace, 'v1');
  await pushImage(ctx.project.pathWithNamespace, 'latest');
  const registryRepositoryId = await repositoryId(ctx.project.id, ctx.project.pathWithNamespace);

  await must('POST', `${p}/members`, {
    token: rootToken(),
    body: { user_id: ctx.bystander.id, access_level: 10 },
  });

  return {
    sha: commit.id,
    issueIid: issue.iid,
    issueId: issue.id,
    mergeRequestIid: mr.iid,
    snippetId: ordinarySnippet.id,
    privateSnippetId: privateSnippet.id,
    epic: ordinaryEpic,
    confidentialEpic,
    noteableIds,
    threads,
    internalThread,
    labelId: label.id,
    projectLabel: { id: projectLabel.id, name: projectLabel.name },
    milestoneId: milestone.id,
    projectMilestoneId: projectMilestone.id,
    boardId: board.id,
    listId: list.id,
    projectBoardId: projectBoard.id,
    projectListId: projectList.id,
    integration,
    alertIid: alerts[0]!.iid,
    registry: { repositoryId: registryRepositoryId, tag: 'v1' },
    projectMemberId: ctx.bystander.id,
    projectHookId: projectHook.id,
    groupHookId: groupHook.id,
    projectHookLogId,
    groupHookLogId,
  };
}
