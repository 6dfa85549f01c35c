import { rootToken, unique } from '../e2e.helpers';
import { call, must } from './http';
import { commitBody, noteableBase, pushImage, repositoryId, startThread } from './resources';
import { noteableKindOf, type CellContext, type FreshKind, type ParamValues } from './rules';
import { createGroup, createProject } from './world';
import { nextEmojiName } from './rules/emoji-rotation';

const victims = new Map<string, Promise<number>>();

/** A board of the group or project at `base` (`/groups/:id`, `/projects/:id`). */
async function freshBoard(base: string, owner: string): Promise<number> {
  const board = await must<{ id: number }>('POST', `${base}/boards`, {
    token: owner,
    body: { name: unique('b-') },
  });
  return board.id;
}

/** A list of a new label of the group or project at `base` on its board `boardId`. */
async function freshList(base: string, boardId: number, owner: string): Promise<number> {
  const label = await must<{ id: number }>('POST', `${base}/labels`, {
    token: owner,
    body: { name: unique('lst-'), color: '#abcdef' },
  });
  const list = await must<{ id: number }>('POST', `${base}/boards/${boardId}/lists`, {
    token: owner,
    body: { label_id: label.id },
  });
  return list.id;
}

/**
 * A resource of its own for a destructive cell, made by root or the Owner: deleting it harms no other cell.
 * Returns the path parameters that address it.
 */
export async function makeFresh(kind: FreshKind, c: CellContext, path: string): Promise<ParamValues> {
  const owner = c.world.people.owner.token;
  const root = rootToken();
  const p = `/projects/${c.target.project.id}`;
  const g = `/groups/${c.target.group.id}`;
  switch (kind) {
    case 'subgroup':
      return { id: (await createGroup(c.visibility, c.target.group.id)).id };
    case 'project':
      return { id: (await createProject(c.target.group.id, c.visibility)).id };
    case 'groupMember':
    case 'projectMember': {
      // One victim per target and kind, (re-)added before each cell: creating users is slow (password hash).
      const key = `${kind}:${c.visibility}`;
      if (!victims.has(key)) {
        const username = unique('mxvictim');
        victims.set(
          key,
          must<{ id: number }>('POST', '/users', {
            token: root,
            body: { username, name: username, email: `${username}@example.com`, password: 'Correct-horse-9' },
          }).then((user) => user.id),
        );
      }
      const userId = await victims.get(key)!;
      const added = await call('POST', `${kind === 'groupMember' ? g : p}/members`, {
        token: root,
        body: { user_id: userId, access_level: 10 },
      });
      if (added.status !== 201 && added.status !== 409)
        throw new Error(`member add → ${added.status} ${added.text}`);
      return { user_id: userId };
    }
    case 'issue': {
      const issue = await must<{ iid: number }>('POST', `${p}/issues`, {
        token: owner,
        body: { title: unique('mx-gone-') },
      });
      return { issue_iid: issue.iid };
    }
    case 'snippet': {
      const snippet = await must<{ id: number }>('POST', `${p}/snippets`, {
        token: owner,
        body: { title: unique('mx-gone-'), file_name: 'gone.txt', content: 'x', visibility: c.visibility },
      });
      return { snippet_id: snippet.id };
    }
    case 'epic': {
      const epic = await must<{ iid: number }>('POST', `${g}/epics`, {
        token: owner,
        body: { title: unique('mx-gone-') },
      });
      return { epic_iid: epic.iid };
    }
    case 'epicIssue':
    case 'epicIssueLink': {
      // An issue of the target project (in the target group) of its own, and for removals its link.
      const issue = await must<{ id: number }>('POST', `${p}/issues`, {
        token: owner,
        body: { title: unique('mx-epic-') },
      });
      if (kind === 'epicIssue') return { issue_id: issue.id };
      const link = await must<{ id: number }>('POST', `${g}/epics/${c.r.epic.iid}/issues/${issue.id}`, {
        token: owner,
      });
      return { epic_issue_id: link.id };
    }
    case 'issueLink': {
      // A fresh issue linked to the target's issue by the Owner; the path addresses the link from it.
      const issue = await must<{ iid: number }>('POST', `${p}/issues`, {
        token: owner,
        body: { title: unique('mx-link-') },
      });
      await must('POST', `${p}/issues/${issue.iid}/links`, {
        token: owner,
        body: { target_project_id: c.target.project.id, target_issue_iid: c.r.issueIid },
      });
      const [link] = await must<{ issue_link_id: number }[]>('GET', `${p}/issues/${issue.iid}/links`, {
        token: owner,
      });
      return { issue_iid: issue.iid, issue_link_id: link!.issue_link_id };
    }
    case 'resourceEvent': {
      // An issuable of its own with a label, a milestone, a weight (issues) and a close: one event of each
      // kind; the path's kind picks the event it addresses.
      const onMergeRequest = path.includes('/merge_requests/');
      const fields = { labels: unique('mx-event-'), milestone_id: c.r.milestoneId };
      let iid: number;
      if (onMergeRequest) {
        const branch = unique('mx-event-');
        await must('POST', `${p}/repository/commits`, { token: owner, body: commitBody(branch, 'main') });
        const mr = await must<{ iid: number }>('POST', `${p}/merge_requests`, {
          token: owner,
          body: { source_branch: branch, target_branch: 'main', title: `Events ${branch}`, ...fields },
        });
        iid = mr.iid;
      } else {
        const issue = await must<{ iid: number }>('POST', `${p}/issues`, {
          token: owner,
          body: { title: unique('mx-event-'), weight: 1, ...fields },
        });
        iid = issue.iid;
      }
      const base = `${p}/${onMergeRequest ? 'merge_requests' : 'issues'}/${iid}`;
      await must('PUT', base, { token: owner, body: { state_event: 'close' } });
      const kind = /resource_(\w+)_events/.exec(path)![1]!;
      const [event] = await must<{ id: number }[]>('GET', `${base}/resource_${kind}_events`, {
        token: owner,
      });
      return { eventable_id: iid, eventable_iid: iid, event_id: event!.id };
    }
    case 'mergeRequest': {
      const branch = unique('mx-merge-');
      await must('POST', `${p}/repository/commits`, { token: owner, body: commitBody(branch, 'main') });
      const mr = await must<{ iid: number }>('POST', `${p}/merge_requests`, {
        token: owner,
        body: { source_branch: branch, target_branch: 'main', title: `Merge ${branch}` },
      });
      return { merge_request_iid: mr.iid };
    }
    case 'thread': {
      const noteable = noteableKindOf(path);
      if (!noteable) throw new Error(`no noteable in ${path}`);
      const ctx = { ...c.target, owner: c.world.people.owner, bystander: c.world.bystander };
      const thread = await startThread(noteableBase(ctx, noteable, c.r.noteableIds[noteable]), owner);
      return { discussion_id: thread.discussionId, note_id: thread.noteId };
    }
    case 'award': {
      // Root's award on the cell's noteable (or its thread's first note): only admins may delete it.
      const noteable = noteableKindOf(path);
      if (!noteable) throw new Error(`no noteable in ${path}`);
      // Epics are awarded by iid in their group (ee/lib/ee/api/helpers/award_emoji.rb).
      const epic = path.includes('/{epic_iid}');
      const segment = path.slice(0, path.indexOf(epic ? '/{epic_iid}' : '/{noteable_id}'));
      const parent = epic ? c.target.group.id : c.target.project.id;
      const awardable = epic ? c.r.epic.iid : c.r.noteableIds[noteable];
      let on = `${segment.replace('{id}', String(parent))}/${awardable}`;
      if (path.includes('/notes/{note_id}')) on += `/notes/${c.r.threads[noteable].noteId}`;
      const award = await must<{ id: number }>('POST', `${on}/award_emoji`, {
        token: root,
        body: { name: nextEmojiName(on) },
      });
      return { award_id: award.id };
    }
    case 'label': {
      const label = await must<{ id: number }>('POST', `${g}/labels`, {
        token: owner,
        body: { name: unique('gone-'), color: '#abcdef' },
      });
      return { label_id: label.id };
    }
    case 'projectLabel': {
      const label = await must<{ id: number }>('POST', `${p}/labels`, {
        token: owner,
        body: { name: unique('gone-'), color: '#abcdef' },
      });
      return { label_id: label.id };
    }
    case 'projectMilestone': {
      const milestone = await must<{ id: number }>('POST', `${p}/milestones`, {
        token: owner,
        body: { title: unique('gone-') },
      });
      return { milestone_id: milestone.id };
    }
    case 'board':
      return { board_id: await freshBoard(g, owner) };
    case 'list':
      return { list_id: await freshList(g, c.r.boardId, owner) };
    case 'projectBoard':
      return { board_id: await freshBoard(p, owner) };
    case 'projectList':
      return { board_id: c.r.projectBoardId, list_id: await freshList(p, c.r.projectBoardId, owner) };
    case 'projectHook': {
      const hook = await must<{ id: number }>('POST', `${p}/hooks`, {
        token: owner,
        body: { url: 'https://hooks.example.com/gone' },
      });
      return { hook_id: hook.id };
    }
    case 'groupHook': {
      const hook = await must<{ id: number }>('POST', `${g}/hooks`, {
        token: owner,
        body: { url: 'https://hooks.example.com/gone' },
      });
      return { hook_id: hook.id };
    }
    case 'integration': {
      const integration = await must<{ id: number }>('POST', `${p}/alert_management/http_integrations`, {
        token: owner,
        body: { name: unique('gone-'), active: false },
      });
      return { integration_id: integration.id };
    }
    case 'repository': {
      const path = `${c.target.project.pathWithNamespace}/${unique('gone')}`;
      await pushImage(path, 'v1');
      return { repository_id: await repositoryId(c.target.project.id, path) };
    }
    case 'tag': {
      const tag = unique('gone-');
      await pushImage(c.target.project.pathWithNamespace, tag);
      return { tag_name: tag };
    }
    case 'user':
    case 'bannedUser': {
      // Blocking, banning or deleting a user must not touch the world's people.
      const username = unique('mxmod');
      const user = await must<{ id: number }>('POST', '/users', {
        token: root,
        body: { username, name: username, email: `${username}@example.com`, password: 'Correct-horse-9' },
      });
      if (kind === 'bannedUser') await must('POST', `/users/${user.id}/ban`, { token: root });
      return { id: user.id };
    }
  }
}
