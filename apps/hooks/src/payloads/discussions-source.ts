import { randomUUID } from 'node:crypto';
import type {
  InternalContext,
  IssuableHookAttributes,
  IssueEntity,
  MergeRequestEntity,
  NoteEntity,
  SnippetEntity,
} from '@gl/contracts';
import { INTERNAL_CONTEXT_HEADER, REQUEST_ID_HEADER } from '@gl/contracts';
import { CONTEXT_TTL_MS, signContext } from '@gl/service-kit';
import type { PayloadProject } from './project';

/**
 * An issue or merge request as read for a payload: its API entity and, from a discussions that shows them,
 * the hook-only columns (absent from an older one, or a test's fake: then null in the payload).
 */
export type HookIssue = IssueEntity & Partial<IssuableHookAttributes>;
export type HookMergeRequest = MergeRequestEntity & Partial<IssuableHookAttributes>;

/** The objects a payload shows in full, read from the discussions service when the event is consumed. */
export interface DiscussionsSource {
  issue(project: PayloadProject, iid: number): Promise<HookIssue | null>;
  mergeRequest(project: PayloadProject, iid: number): Promise<HookMergeRequest | null>;
  snippet(project: PayloadProject, id: number): Promise<SnippetEntity | null>;
  /** `noteable` is the noteable's path below the project: `issues/3`, `merge_requests/2`, `snippets/9`. */
  note(project: PayloadProject, noteable: string, noteId: number): Promise<NoteEntity | null>;
}

export interface HttpSourceOptions {
  /** One URL, or each replica's (used in turn). */
  discussionsUrl: string | string[];
  externalUrl: string;
  contextSecret: string;
  timeoutMs?: number;
}

/** Thrown when discussions does not answer or answers an error other than 404: the event is retried. */
export class SourceUnavailableError extends Error {}

/**
 * Reads from discussions with a context the hooks service signs itself, as the gateway would for an
 * administrator (GitLab's WebHookService builds payloads from the records, whoever may read them).
 */
export function httpDiscussionsSource(options: HttpSourceOptions): DiscussionsSource {
  const bases = [options.discussionsUrl].flat().map((url) => url.replace(/\/+$/, ''));
  let turn = 0;
  const external = options.externalUrl.replace(/\/+$/, '');

  function contextFor(project: PayloadProject): InternalContext {
    return {
      v: 1,
      requestId: randomUUID(),
      exp: Date.now() + CONTEXT_TTL_MS,
      tier: 'ultimate',
      externalUrl: external,
      principal: {
        id: 1,
        username: 'root',
        name: 'Administrator',
        state: 'active',
        avatar_url: null,
        web_url: `${external}/root`,
        email: 'admin@example.com',
        isAdmin: true,
        scopes: ['api'],
      },
      namespace: {
        kind: 'project',
        id: project.id,
        name: project.name,
        path: project.fullPath.split('/').pop()!,
        fullPath: project.fullPath,
        fullName: project.fullPath.split('/').join(' / '),
        visibility: project.visibility,
        webUrl: `${external}/${project.fullPath}`,
        ancestorGroupIds: [],
        accessLevel: 50,
        // As the gateway signs them: discussions' feature gate then reads no copy of its own.
        ...(project.features && { features: project.features }),
      },
      // Issues and merge requests then show updated_by_id, which Issue#hook_attrs has and the API does not.
      hookAttributes: true,
    };
  }

  async function get<T>(project: PayloadProject, path: string): Promise<T | null> {
    let response: Response;
    try {
      const base = bases[turn++ % bases.length]!;
      response = await fetch(`${base}/api/v4/projects/${project.id}/${path}`, {
        headers: {
          [INTERNAL_CONTEXT_HEADER]: signContext(options.contextSecret, contextFor(project)),
          [REQUEST_ID_HEADER]: randomUUID(),
          accept: 'application/json',
        },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new SourceUnavailableError(`discussions unreachable: ${(err as Error).message}`);
    }
    // Gone, or its feature disabled since (the feature gate's 403): no payload, as GitLab runs no hooks then.
    if (response.status === 404 || response.status === 403) return null;
    if (!response.ok) throw new SourceUnavailableError(`discussions answered ${response.status} for ${path}`);
    return (await response.json()) as T;
  }

  return {
    issue: (project, iid) => get<HookIssue>(project, `issues/${iid}?with_labels_details=true`),
    mergeRequest: (project, iid) =>
      get<HookMergeRequest>(project, `merge_requests/${iid}?with_labels_details=true`),
    snippet: (project, id) => get<SnippetEntity>(project, `snippets/${id}`),
    note: (project, noteable, noteId) => get<NoteEntity>(project, `${noteable}/notes/${noteId}`),
  };
}

/**
 * The source for one batch of events: a read asked again (two events about one note or issue) is sent
 * once, and every payload of the batch shows the object as it is now, which is what each read would say.
 * discussions serves these objects one by one (GitLab's API has no read of notes by ids across noteables).
 */
export function batchReads(source: DiscussionsSource): DiscussionsSource {
  const reads = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let pending = reads.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = read();
      reads.set(key, pending);
    }
    return pending;
  };
  return {
    issue: (project, iid) => once(`${project.id}:issue:${iid}`, () => source.issue(project, iid)),
    mergeRequest: (project, iid) => once(`${project.id}:mr:${iid}`, () => source.mergeRequest(project, iid)),
    snippet: (project, id) => once(`${project.id}:snippet:${id}`, () => source.snippet(project, id)),
    note: (project, noteable, noteId) =>
      once(`${project.id}:${noteable}:note:${noteId}`, () => source.note(project, noteable, noteId)),
  };
}
