import type { Visibility } from '@gl/contracts';
import {
  LEAST_READER,
  canReadNamespace,
  canReadTarget,
  readsWhatAnyoneReads,
  seesEveryTarget,
  viewerOf,
  type AccessTarget,
  type TargetViewer,
} from './target-access';

/** Who reads: ids 1..7; the author of every target below is 6, its assignee 7. */
const AUTHOR = 6;
const ASSIGNEE = 7;
type Role = 'anonymous' | 'outsider' | 'guest' | 'reporter' | 'author' | 'assignee' | 'admin';
const LEVEL: Record<Role, number> = {
  anonymous: 0,
  outsider: 0,
  guest: 10,
  reporter: 20,
  // Author and assignee are Guests: the exceptions exist for them.
  author: 10,
  assignee: 10,
  admin: 0,
};
const USER: Record<Role, number | null> = {
  anonymous: null,
  outsider: 1,
  guest: 2,
  reporter: 3,
  author: AUTHOR,
  assignee: ASSIGNEE,
  admin: 5,
};

function viewer(role: Role, visibility: Visibility): TargetViewer {
  return {
    userId: USER[role],
    isAdmin: role === 'admin',
    accessLevel: LEVEL[role],
    namespaceVisibility: visibility,
  };
}

const people = { authorId: AUTHOR, assigneeIds: [ASSIGNEE] };
const ROLES: Role[] = ['anonymous', 'outsider', 'guest', 'reporter', 'author', 'assignee', 'admin'];

/** The roles that read `target` in a namespace of `visibility`, in ROLES order. */
function readers(target: AccessTarget, visibility: Visibility): Role[] {
  return ROLES.filter((role) => canReadTarget(viewer(role, visibility), target));
}

describe('canReadTarget', () => {
  it.each<[string, AccessTarget, Visibility, Role[]]>([
    // read_project: public to all, internal to signed-in users, private to members (ProjectPolicy).
    ['project event, public', { kind: 'Project' }, 'public', ROLES],
    ['project event, internal', { kind: 'Project' }, 'internal', ROLES.filter((r) => r !== 'anonymous')],
    [
      'project event, private',
      { kind: 'Project' },
      'private',
      ['guest', 'reporter', 'author', 'assignee', 'admin'],
    ],
    [
      'milestone, private',
      { kind: 'Milestone' },
      'private',
      ['guest', 'reporter', 'author', 'assignee', 'admin'],
    ],

    // IssuePolicy: a confidential issue only for author, assignees, Reporter and up (and admins).
    ['issue, public', { kind: 'Issue', ...people }, 'public', ROLES],
    [
      'confidential issue, public',
      { kind: 'Issue', confidential: true, ...people },
      'public',
      ['reporter', 'author', 'assignee', 'admin'],
    ],
    [
      'confidential issue, private',
      { kind: 'Issue', confidential: true, ...people },
      'private',
      ['reporter', 'author', 'assignee', 'admin'],
    ],

    // ProjectPolicy read_merge_request (public_access / Reporter) + IssuablePolicy (Guest author/assignee).
    ['merge request, public', { kind: 'MergeRequest', ...people }, 'public', ROLES],
    [
      'merge request, internal',
      { kind: 'MergeRequest', ...people },
      'internal',
      ROLES.filter((r) => r !== 'anonymous'),
    ],
    [
      'merge request, private',
      { kind: 'MergeRequest', ...people },
      'private',
      ['reporter', 'author', 'assignee', 'admin'],
    ],
    [
      'merge request without author (older event), private',
      { kind: 'MergeRequest' },
      'private',
      ['reporter', 'admin'],
    ],

    // ProjectSnippetPolicy: private snippets to members (project.guest) and the author only.
    [
      'public snippet, public project',
      { kind: 'Snippet', visibility: 'public', authorId: AUTHOR },
      'public',
      ROLES,
    ],
    [
      'internal snippet, public project',
      { kind: 'Snippet', visibility: 'internal', authorId: AUTHOR },
      'public',
      ROLES.filter((r) => r !== 'anonymous'),
    ],
    [
      'private snippet, public project',
      { kind: 'Snippet', visibility: 'private', authorId: AUTHOR },
      'public',
      ['guest', 'reporter', 'author', 'assignee', 'admin'],
    ],
    [
      'snippet without visibility (older event): private',
      { kind: 'Snippet' },
      'public',
      ['guest', 'reporter', 'author', 'assignee', 'admin'],
    ],
    [
      'public snippet, private project',
      { kind: 'Snippet', visibility: 'public' },
      'private',
      ['guest', 'reporter', 'author', 'assignee', 'admin'],
    ],

    // EpicPolicy: confidential epics only with read_confidential_epic (Reporter and up); no author exception.
    ['epic, public group', { kind: 'Epic', authorId: AUTHOR }, 'public', ROLES],
    [
      'confidential epic, public group',
      { kind: 'Epic', confidential: true, authorId: AUTHOR },
      'public',
      ['reporter', 'admin'],
    ],

    // download_code: public and internal (signed in) projects, else Reporter and up.
    ['code, public', { kind: 'Code' }, 'public', ROLES],
    ['code, internal', { kind: 'Code' }, 'internal', ROLES.filter((r) => r !== 'anonymous')],
    ['code, private', { kind: 'Code' }, 'private', ['reporter', 'admin']],

    // read_internal_note: Reporter and up (and admins), on top of the noteable's own rule.
    [
      'internal note on an issue, public',
      { kind: 'Issue', internal: true, ...people },
      'public',
      ['reporter', 'admin'],
    ],
    [
      'internal note on a merge request, private',
      { kind: 'MergeRequest', internal: true, ...people },
      'private',
      ['reporter', 'admin'],
    ],
    [
      'note on a confidential issue, public',
      { kind: 'Issue', confidential: true, internal: false, ...people },
      'public',
      ['reporter', 'author', 'assignee', 'admin'],
    ],
    ['note on a commit, private', { kind: 'Code', internal: false }, 'private', ['reporter', 'admin']],
  ])('%s', (_name, target, visibility, expected) => {
    expect(readers(target, visibility)).toEqual(expected);
  });

  it('When the viewer is Reporter or admin, then seesEveryTarget; anyone else misses some target', () => {
    const targets: AccessTarget[] = [
      { kind: 'Issue', confidential: true, internal: true },
      { kind: 'MergeRequest', internal: true },
      { kind: 'Snippet', visibility: 'private' },
      { kind: 'Epic', confidential: true, internal: true },
      { kind: 'Code', internal: true },
    ];
    for (const visibility of ['private', 'internal', 'public'] as const) {
      for (const role of ROLES) {
        const v = viewer(role, visibility);
        expect(targets.every((t) => canReadTarget(v, t))).toBe(seesEveryTarget(v));
      }
    }
  });

  it('When a viewer reads what anyone reads, then every target the least reader reads, they read too', () => {
    const targets: AccessTarget[] = [
      { kind: 'Project' },
      { kind: 'Milestone' },
      { kind: 'Issue', ...people },
      { kind: 'Issue', confidential: true, ...people },
      { kind: 'MergeRequest', ...people },
      { kind: 'MergeRequest' },
      { kind: 'Snippet', visibility: 'public' },
      { kind: 'Snippet', visibility: 'internal' },
      { kind: 'Snippet', visibility: 'private', authorId: AUTHOR },
      { kind: 'Epic', confidential: false },
      { kind: 'Epic', confidential: true },
      { kind: 'Code' },
      { kind: 'Issue', internal: true },
    ];
    const leastReads = targets.filter((t) => canReadTarget(LEAST_READER, t));
    expect(leastReads.map((t) => t.kind)).toEqual([
      'Project',
      'Milestone',
      'Issue',
      'MergeRequest',
      'MergeRequest',
      'Snippet',
      'Epic',
      'Code',
    ]);
    const claimed: string[] = [];
    for (const visibility of ['private', 'internal', 'public'] as const) {
      for (const role of ROLES) {
        const v = viewer(role, visibility);
        if (!readsWhatAnyoneReads(v)) continue;
        claimed.push(`${role}@${visibility}`);
        expect([role, visibility, leastReads.every((t) => canReadTarget(v, t))]).toEqual([
          role,
          visibility,
          true,
        ]);
      }
    }
    // Guests of private projects are not among them: merge requests and code are closed to them.
    expect(claimed).not.toContain('guest@private');
    expect(claimed).toEqual(
      expect.arrayContaining(['anonymous@public', 'outsider@internal', 'reporter@private']),
    );
    expect(claimed).not.toContain('anonymous@internal');
  });

  it('When a signed context carries no namespace, then nothing is readable but to admins', () => {
    const v = viewerOf({
      v: 1,
      requestId: 'r',
      exp: 0,
      tier: 'ultimate',
      externalUrl: 'http://x',
      principal: null,
      namespace: null,
    });
    expect(v).toEqual({ userId: null, isAdmin: false, accessLevel: 0, namespaceVisibility: 'private' });
    expect(canReadNamespace(v)).toBe(false);
  });
});
