/**
 * Who may do what, as GitLab's policies state it: the vocabulary the rules table is written in, and the
 * one function that turns a rule into the answer GitLab gives a caller.
 */
export const VISIBILITIES = ['private', 'internal', 'public'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

export const CALLER_NAMES = [
  'anonymous',
  'outsider',
  'guest',
  'reporter',
  'developer',
  'maintainer',
  'owner',
  'admin',
  'read_api',
] as const;
export type CallerName = (typeof CALLER_NAMES)[number];

/** Roles by GitLab's access level (Gitlab::Access); the read_api token belongs to an Owner. */
const ROLE_RANK: Record<CallerName, number> = {
  anonymous: -1,
  outsider: 0,
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
  admin: 0,
  read_api: 50,
};

/** A least caller: everyone, any signed-in user, a role of the target's group, or an administrator. */
export type Who =
  'anyone' | 'signed-in' | 'guest' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'admin';
/** The least caller, the same for every visibility or per visibility of the target. */
export type Sight = Who | Record<Visibility, Who>;

/** `read_project` / `read_group`: public to all, internal to signed-in users, private to members. */
export const VISIBLE: Sight = { public: 'anyone', internal: 'signed-in', private: 'guest' };
/**
 * A project feature Reporters get in private projects and everyone who sees a public or internal one gets
 * through `public_access` (ProjectPolicy): read_merge_request, download_code, read_container_image.
 */
export const REPORTER_IF_PRIVATE: Sight = { public: 'anyone', internal: 'signed-in', private: 'reporter' };

export function whoFor(sight: Sight, visibility: Visibility): Who {
  return typeof sight === 'string' ? sight : sight[visibility];
}

/** Administrators pass every check (`can?` for admins); the rest by role. */
export function meets(caller: CallerName, who: Who): boolean {
  if (caller === 'admin') return true;
  switch (who) {
    case 'anyone':
      return true;
    case 'signed-in':
      return caller !== 'anonymous';
    case 'admin':
      return false;
    default:
      return ROLE_RANK[caller] >= ROLE_RANK[who];
  }
}

export function sees(caller: CallerName, sight: Sight, visibility: Visibility): boolean {
  return meets(caller, whoFor(sight, visibility));
}

/** What a cell must answer: a success, a write that is not refused, or one exact refusal. */
export type Outcome = 'ok' | 'allowed' | 400 | 401 | 403 | 404;

/** The parts of a rule that decide a cell's outcome (see rules/types.ts for their meaning). */
export interface Gate {
  write: boolean;
  /** GitLab calls `authenticate!` before anything: an anonymous caller gets this. */
  anonymous: 401 | 403 | 'sight';
  /**
   * An anonymous write: 401 (authenticate! first), or `lookup-first` where GitLab finds the project before
   * it authenticates (project_snippets.rb, commits.rb, project_container_repositories.rb): 404 when the
   * project is hidden from anonymous callers, 401 otherwise.
   */
  anonymousWrite: 401 | 'lookup-first';
  see: Sight;
  /** Not found for callers who do not see the target: 404, or 400/403 where GitLab answers so. */
  hidden: 400 | 403 | 404;
  need?: Sight;
  denied: 403 | 404;
  role?: Who;
  roleDenied: 400 | 401 | 403;
}

/**
 * GitLab's order: authentication (anonymous → 401), token scope (`read_api` may only GET → 403
 * insufficient_scope), finding the target (not visible → 404), the feature's ability (→ `denied`), the
 * role a write needs (→ 403).
 */
export function expectedOutcome(gate: Gate, caller: CallerName, visibility: Visibility): Outcome {
  if (caller === 'anonymous' && (gate.write || gate.anonymous !== 'sight')) {
    if (!gate.write) return gate.anonymous as 401 | 403;
    const hiddenFirst = gate.anonymousWrite === 'lookup-first' && !sees(caller, gate.see, visibility);
    return hiddenFirst ? gate.hidden : 401;
  }
  if (caller === 'read_api' && gate.write) return 403;
  if (!sees(caller, gate.see, visibility)) return gate.hidden;
  if (gate.need && !sees(caller, gate.need, visibility)) return gate.denied;
  if (gate.role && !meets(caller, gate.role)) return gate.roleDenied;
  return gate.write ? 'allowed' : 'ok';
}
