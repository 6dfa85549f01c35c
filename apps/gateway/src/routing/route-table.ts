/**
 * Every /api/v4 path of the spec, mapped to the service that owns it, with its auth policy:
 * - `required`: a valid token is needed (401 without), GitLab's `authenticate!` before anything else;
 * - `optional`: anonymous callers may read public resources; a bad token is still a 401;
 * - `non-get`: like `optional` for GET and HEAD, but any other method needs a token before the resource is
 *   looked up (GitLab's `authenticate_non_get!`): an anonymous write is a 401, never a 404;
 * - `none`: the service authenticates the caller itself (alert integration tokens, registry secret), so
 *   the gateway must not interpret the Authorization header as a personal access token.
 * Order matters: the first matching entry wins.
 */
export const SERVICES = ['boards', 'discussions', 'alerts', 'notifications', 'events', 'registry'] as const;
export type ServiceName = (typeof SERVICES)[number];

export type AuthPolicy = 'required' | 'optional' | 'non-get' | 'none';

export interface RouteSpec {
  /** Express 5 path below /api/v4. */
  path: string;
  service: ServiceName;
  auth: AuthPolicy;
  /** Which path parameter names a group or project to resolve before forwarding. */
  namespace?: { kind: 'group' | 'project'; param: string };
  /** Scopes accepted for reads besides api/read_api (GitLab's allow_access_with_scope). */
  readScopes?: string[];
}

const group = (param = 'id') => ({ kind: 'group' as const, param });
const project = (param = 'id') => ({ kind: 'project' as const, param });

const PROJECT_NOTEABLES = ['issues', 'merge_requests', 'snippets', 'repository/commits', 'commits'];

/**
 * Noteable reads are anonymous on public projects. Writes: lib/api/issues.rb and merge_requests.rb run
 * `authenticate_non_get!` first; project_snippets.rb and commits.rb look the project up first (their
 * `before` blocks call `user_project`, 404 when invisible) and only then authenticate or authorize.
 */
const NOTEABLE_AUTH: Record<string, AuthPolicy> = {
  issues: 'non-get',
  merge_requests: 'non-get',
  snippets: 'optional',
  'repository/commits': 'optional',
  commits: 'optional',
};

export const ROUTE_TABLE: RouteSpec[] = [
  // Group boards, labels, milestones. lib/api/group_labels.rb and group_milestones.rb run `authenticate!`
  // before every route, so writes are 401 before the lookup. Reads stay anonymous-capable here, as the
  // contracts declare them (optional-token), though GitLab refuses those too.
  { path: '/groups/:id/boards{/*rest}', service: 'boards', auth: 'required', namespace: group() },
  { path: '/groups/:id/labels{/*rest}', service: 'boards', auth: 'non-get', namespace: group() },
  { path: '/groups/:id/milestones{/*rest}', service: 'boards', auth: 'non-get', namespace: group() },

  // Discussions and notes always need a user (GitLab: authenticate! on the whole API class).
  ...PROJECT_NOTEABLES.flatMap((noteable): RouteSpec[] => [
    {
      path: `/projects/:id/${noteable}/:noteable_id/discussions{/*rest}`,
      service: 'discussions',
      auth: 'required',
      namespace: project(),
    },
    {
      path: `/projects/:id/${noteable}/:noteable_id/notes{/*rest}`,
      service: 'discussions',
      auth: 'required',
      namespace: project(),
    },
  ]),
  {
    path: '/groups/:id/epics/:epic_id/discussions{/*rest}',
    service: 'discussions',
    auth: 'required',
    namespace: group(),
  },
  {
    path: '/groups/:id/epics/:epic_id/notes{/*rest}',
    service: 'discussions',
    auth: 'required',
    namespace: group(),
  },
  ...PROJECT_NOTEABLES.map((noteable): RouteSpec => ({
    path: `/projects/:id/${noteable}{/*rest}`,
    service: 'discussions',
    auth: NOTEABLE_AUTH[noteable]!,
    namespace: project(),
  })),
  // ee/lib/api/epics.rb: `authenticate_non_get!`.
  { path: '/groups/:id/epics{/*rest}', service: 'discussions', auth: 'non-get', namespace: group() },

  // Alerts and error tracking
  {
    path: '/projects/:id/alert_management{/*rest}',
    service: 'alerts',
    auth: 'required',
    namespace: project(),
  },
  {
    path: '/projects/:id/alert_management_alerts{/*rest}',
    service: 'alerts',
    auth: 'required',
    namespace: project(),
  },
  { path: '/projects/:id/error_tracking{/*rest}', service: 'alerts', auth: 'required', namespace: project() },

  // Notification settings
  { path: '/notification_settings', service: 'notifications', auth: 'required' },
  {
    path: '/groups/:id/notification_settings',
    service: 'notifications',
    auth: 'required',
    namespace: group(),
  },
  {
    path: '/projects/:id/notification_settings',
    service: 'notifications',
    auth: 'required',
    namespace: project(),
  },

  // Activity events
  { path: '/events', service: 'events', auth: 'required', readScopes: ['read_user'] },
  { path: '/users/:user_id/events', service: 'events', auth: 'required', readScopes: ['read_user'] },
  { path: '/projects/:id/events', service: 'events', auth: 'optional', namespace: project() },

  // Container registry. Project routes look the project up first (project_container_repositories.rb:
  // `authorize_read_container_images!` in `before`), so an anonymous delete is a 404 on a private project
  // and a 403 on a public one; container_repositories.rb runs `authenticate!` first.
  { path: '/projects/:id/registry{/*rest}', service: 'registry', auth: 'optional', namespace: project() },
  { path: '/groups/:id/registry{/*rest}', service: 'registry', auth: 'required', namespace: group() },
  { path: '/registry/repositories{/*rest}', service: 'registry', auth: 'required' },
  { path: '/container_registry_event/events', service: 'registry', auth: 'none' },
];

/**
 * Alert ingestion lives outside /api/v4, under the project's own path (which may contain subgroups):
 * `/{namespace}/{project}/alerts/notify[/{name}/{endpoint_identifier}][.json]` and
 * `/{namespace}/{project}/prometheus/alerts/notify.json`. The integration token is the only credential.
 */
export const ALERT_NOTIFY_PATTERN =
  /^\/(.+?)\/(alerts\/notify(?:\/[^/]+\/[^/]+?)?(?:\.json)?|prometheus\/alerts\/notify\.json)$/;
