import type { NamespaceContext } from '@gl/contracts';
import { commitEntity, epicEntity, issueEntity, snippetEntity } from '@gl/contracts';
import { groupNamespace, projectNamespace, type DiscussionsHarness } from './discussions.harness';

export type Kind = 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic' | 'Commit';

export interface Noteable {
  ns: NamespaceContext;
  /** Path prefix P of the discussions endpoints. */
  prefix: string;
  noteableId: number | null;
  noteableIid: number | null;
}

/** Creates noteables through the API as clients do: `make(kind)` answers where its threads live. */
export function noteableMaker(h: Pick<DiscussionsHarness, 'call'>) {
  return async function make(kind: Kind, visibility: 'private' | 'public' = 'private'): Promise<Noteable> {
    if (kind === 'Epic') {
      const ns = groupNamespace({ visibility });
      const epic = epicEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/epics`, { ns, json: { title: 'Epic' } })).body,
      );
      return { ns, prefix: `/groups/${ns.id}/epics/${epic.id}`, noteableId: epic.id, noteableIid: null };
    }
    const ns = projectNamespace({ visibility });
    const p = `/projects/${ns.id}`;
    if (kind === 'Issue') {
      const issue = issueEntity.parse(
        (await h.call('POST', `${p}/issues`, { ns, json: { title: 'Issue' } })).body,
      );
      return { ns, prefix: `${p}/issues/${issue.iid}`, noteableId: issue.id, noteableIid: issue.iid };
    }
    if (kind === 'MergeRequest') {
      const res = await h.call('POST', `${p}/merge_requests`, {
        ns,
        json: { source_branch: 'feature', target_branch: 'main', title: 'MR' },
      });
      const mr = res.body as { id: number; iid: number };
      return { ns, prefix: `${p}/merge_requests/${mr.iid}`, noteableId: mr.id, noteableIid: mr.iid };
    }
    if (kind === 'Snippet') {
      // As visible as its project: a private snippet would be for members only (ProjectSnippetPolicy).
      const snippet = snippetEntity.parse(
        (
          await h.call('POST', `${p}/snippets`, {
            ns,
            json: { title: 'S', file_name: 's.txt', content: 'x', visibility },
          })
        ).body,
      );
      return { ns, prefix: `${p}/snippets/${snippet.id}`, noteableId: snippet.id, noteableIid: null };
    }
    const commit = commitEntity.parse(
      (
        await h.call('POST', `${p}/repository/commits`, {
          ns,
          json: { branch: 'main', commit_message: 'Commit', actions: [{ action: 'create', file_path: 'a' }] },
        })
      ).body,
    );
    return { ns, prefix: `${p}/repository/commits/${commit.id}`, noteableId: null, noteableIid: null };
  };
}
