import { unique } from '../../e2e.helpers';
import type { NoteableKind } from '../resources';
import { REPORTER_IF_PRIVATE, VISIBLE, type Sight } from '../sight';
import type { ListCheck, Rule, Rules, Variant } from './types';

/**
 * Discussions and notes on every noteable. GitLab generates the same routes per noteable type
 * (lib/api/discussions.rb, lib/api/notes.rb; both `before { authenticate! }`), finds the noteable with
 * helpers/notes_helpers.rb `find_noteable` (a noteable the caller may not read, or whose notes it may not
 * read, is `not_found!(noteable_type)` → 404), then authorizes: create_note (ProjectPolicy guest_access —
 * which public_user_access gives any signed-in user on public and internal projects; EpicPolicy: read_epic
 * & ~anonymous), admin_note for edits and deletes (app/policies/note_policy.rb: the author, delegated
 * ProjectPolicy maintainer_access; EpicPolicy: maintainer or owner), resolve_note (developer_access).
 * Internal notes: NotePolicy `internal & ~can_read_internal_note` (Reporter and up) prevents read_note.
 */
interface Kind {
  kind: NoteableKind;
  type: 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic' | 'Commit';
  target: 'group' | 'project';
  /** Who may read the noteable once the project is found (else find_noteable → 404). */
  read?: Sight;
  notesApi: boolean;
}

const KINDS: Kind[] = [
  { kind: 'issue', type: 'Issue', target: 'project', notesApi: true },
  // read_merge_request: reporter_access, or public_access (ProjectPolicy).
  {
    kind: 'merge_request',
    type: 'MergeRequest',
    target: 'project',
    read: REPORTER_IF_PRIVATE,
    notesApi: true,
  },
  { kind: 'snippet', type: 'Snippet', target: 'project', notesApi: true },
  { kind: 'epic', type: 'Epic', target: 'group', notesApi: true },
  // CommitPolicy read_commit delegates to download_code (reporter_access, or public_access).
  { kind: 'commit', type: 'Commit', target: 'project', read: REPORTER_IF_PRIVATE, notesApi: false },
];

const SOURCE = 'lib/api/discussions.rb, lib/api/notes.rb, lib/api/helpers/notes_helpers.rb';
const perPage = (): Record<string, string> => ({ per_page: '100' });
const note = (): Record<string, unknown> => ({ body: `matrix ${unique('n')}` });

/** The sensitive noteable or note of each kind a read is also tried on. */
function readVariants(k: Kind, what: 'list' | 'thread' | 'note'): Variant[] {
  if (k.kind === 'issue' && what !== 'list') {
    return [
      {
        name: 'internal note',
        params: (c) => ({
          discussion_id: c.r.internalThread.discussionId,
          note_id: c.r.internalThread.noteId,
        }),
        need: 'reporter',
        denied: 404,
        source: 'app/policies/note_policy.rb: internal & ~can_read_internal_note prevents read_note',
      },
    ];
  }
  if (k.kind === 'snippet' && what === 'list') {
    return [
      {
        name: 'private snippet',
        params: (c) => ({ noteable_id: c.r.privateSnippetId }),
        need: 'guest',
        denied: 404,
        source:
          'app/policies/project_snippet_policy.rb: private snippets for members only; find_noteable → 404',
      },
    ];
  }
  if (k.kind === 'epic' && what === 'list') {
    return [
      {
        name: 'confidential epic',
        params: (c) => ({ noteable_id: c.r.confidentialEpic.id }),
        need: 'reporter',
        denied: 404,
        source:
          'ee/app/policies/epic_policy.rb: confidential & ~planner_or_reporter_access prevents read_note',
      },
    ];
  }
  return [];
}

function internalListed(k: Kind, field: 'discussion' | 'note'): ListCheck[] {
  if (k.kind !== 'issue') return [];
  return [
    {
      name: `the internal ${field}`,
      match: (item, c) =>
        item.id === (field === 'note' ? c.r.internalThread.noteId : c.r.internalThread.discussionId),
      sight: 'reporter',
    },
    {
      name: `the ordinary ${field}`,
      match: (item, c) =>
        item.id === (field === 'note' ? c.r.threads.issue.noteId : c.r.threads.issue.discussionId),
      sight: VISIBLE,
    },
  ];
}

function rulesFor(k: Kind): Rules {
  const base: Pick<Rule, 'target' | 'see' | 'need' | 'denied' | 'source'> = {
    target: k.target,
    see: VISIBLE,
    ...(k.read ? { need: k.read, denied: 404 as const } : {}),
    source: SOURCE,
  };
  const rules: Rules = {
    [`list${k.type}Discussions`]: {
      ...base,
      query: perPage,
      lists: internalListed(k, 'discussion'),
      variants: readVariants(k, 'list'),
    },
    [`create${k.type}Discussion`]: { ...base, role: 'signed-in', body: note },
    [`get${k.type}Discussion`]: { ...base, variants: readVariants(k, 'thread') },
    [`list${k.type}DiscussionNotes`]: { ...base, variants: readVariants(k, 'thread') },
    [`add${k.type}DiscussionNote`]: { ...base, role: 'signed-in', body: note },
    [`get${k.type}DiscussionNote`]: { ...base, variants: readVariants(k, 'note') },
    [`update${k.type}DiscussionNote`]: {
      ...base,
      role: 'maintainer',
      body: () => ({ body: `edited ${unique('n')}` }),
    },
    [`delete${k.type}DiscussionNote`]: { ...base, role: 'maintainer', fresh: 'thread' },
  };
  if (k.notesApi) {
    Object.assign(rules, {
      [`list${k.type}Notes`]: {
        ...base,
        query: perPage,
        lists: internalListed(k, 'note'),
        variants: readVariants(k, 'list'),
      },
      [`create${k.type}Note`]: { ...base, role: 'signed-in', body: note },
      [`get${k.type}Note`]: { ...base, variants: readVariants(k, 'note') },
      [`update${k.type}Note`]: {
        ...base,
        role: 'maintainer',
        body: () => ({ body: `edited ${unique('n')}` }),
      },
      [`delete${k.type}Note`]: { ...base, role: 'maintainer', fresh: 'thread' },
    } satisfies Rules);
  }
  if (k.kind === 'merge_request') {
    rules.resolveMergeRequestDiscussion = {
      ...base,
      role: 'developer',
      body: () => ({ resolved: true }),
      source: `${SOURCE}: resolve_note (ProjectPolicy developer_access, or the noteable's author)`,
    };
  }
  return rules;
}

export const NOTE_RULES: Rules = Object.assign({}, ...KINDS.map(rulesFor)) as Rules;

/** Which noteable a discussions/notes path is about, from its path template. */
export function noteableKindOf(path: string): NoteableKind | null {
  if (path.includes('/issues/{noteable_id}')) return 'issue';
  if (path.includes('/merge_requests/{noteable_id}')) return 'merge_request';
  if (path.includes('/snippets/{noteable_id}')) return 'snippet';
  if (path.includes('/epics/{noteable_id}')) return 'epic';
  // Award emoji name the epic by iid (ee/lib/ee/api/helpers/award_emoji.rb), its notes by id.
  if (/\/epics\/\{epic_iid\}\/(notes|award_emoji)/.test(path)) return 'epic';
  if (path.includes('/commits/{noteable_id}')) return 'commit';
  return null;
}
