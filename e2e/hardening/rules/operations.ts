import { unique } from '../../e2e.helpers';
import { REPORTER_IF_PRIVATE, VISIBLE } from '../sight';
import type { ListCheck, Rules } from './types';

/**
 * Alert management, error tracking and activity events. Alert integrations and alerts follow ProjectPolicy:
 * admin_operations (maintainer) to configure, read/update_alert_management_alert (developer); the test
 * alert needs Developer (doc/operations/incident_management/integrations.md). Events apply the read rule
 * of their target (app/models/event.rb `visible_to_user?`: push and commit notes → download_code, merge
 * requests and their notes → read_merge_request, notes → read_note, which hides internal notes below
 * Reporter).
 */
const perPage = (): Record<string, string> => ({ per_page: '100' });

/** The owner's activity on the target project, each shown to exactly whoever may read its target. */
function activity(byProject: boolean): ListCheck[] {
  const inProject = (item: Record<string, unknown>, projectId: number): boolean =>
    !byProject || item.project_id === projectId;
  return [
    {
      name: 'the issue opened event',
      match: (item, c) => inProject(item, c.target.project.id) && item.target_type === 'Issue',
      sight: VISIBLE,
    },
    {
      name: 'merge request events',
      match: (item, c) => inProject(item, c.target.project.id) && item.target_type === 'MergeRequest',
      sight: REPORTER_IF_PRIVATE,
    },
    {
      name: 'push events',
      match: (item, c) =>
        inProject(item, c.target.project.id) && item.push_data !== undefined && item.push_data !== null,
      sight: REPORTER_IF_PRIVATE,
    },
    {
      name: 'the internal note event',
      match: (item, c) =>
        inProject(item, c.target.project.id) &&
        (item.note as { id?: number } | undefined)?.id === c.r.internalThread.noteId,
      sight: 'reporter',
    },
  ];
}

export const OPERATIONS_RULES: Rules = {
  listAlertHttpIntegrations: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    source: 'ProjectPolicy admin_operations (maintainer): HTTP integrations are configured by Maintainers',
  },
  createAlertHttpIntegration: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ name: unique('hook-'), active: true }),
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  getAlertHttpIntegration: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  updateAlertHttpIntegration: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ active: true }),
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  deleteAlertHttpIntegration: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    fresh: 'integration',
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  resetAlertHttpIntegrationToken: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    fresh: 'integration',
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  testAlertHttpIntegration: {
    target: 'project',
    see: VISIBLE,
    role: 'developer',
    body: () => ({ title: `Matrix test ${unique('t')}` }),
    source: 'doc/operations/incident_management/integrations.md: sending a test alert needs Developer',
  },
  getPrometheusIntegration: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  putPrometheusIntegration: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ active: false, api_url: 'https://prometheus.example.com' }),
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  getOpsgenieIntegration: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  putOpsgenieIntegration: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ active: false, api_url: 'https://opsgenie.example.com' }),
    source: 'ProjectPolicy admin_operations (maintainer)',
  },
  listAlerts: {
    target: 'project',
    see: VISIBLE,
    need: 'developer',
    source: 'ProjectPolicy developer_access: read_alert_management_alert',
  },
  getAlert: {
    target: 'project',
    see: VISIBLE,
    need: 'developer',
    source: 'ProjectPolicy developer_access: read_alert_management_alert',
  },
  updateAlert: {
    target: 'project',
    see: VISIBLE,
    role: 'developer',
    body: () => ({ status: 'acknowledged' }),
    source: 'ProjectPolicy developer_access: update_alert_management_alert',
  },
  getErrorTrackingSettings: {
    target: 'project',
    see: VISIBLE,
    need: 'maintainer',
    source: 'lib/api/error_tracking/project_settings.rb: authorize! :admin_operations (maintainer)',
  },
  patchErrorTrackingSettings: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ active: true }),
    source: 'lib/api/error_tracking/project_settings.rb: authorize! :admin_operations (maintainer)',
  },
  putErrorTrackingSettings: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ active: true, integrated: true }),
    source: 'lib/api/error_tracking/project_settings.rb: authorize! :admin_operations (maintainer)',
  },
  notifyAlert: {
    target: 'none',
    special: 'integration-token',
    source:
      'app/controllers/projects/alerting/notifications_controller.rb: the integration token, not a user',
  },
  notifyPrometheusAlerts: {
    target: 'none',
    special: 'integration-token',
    source: 'app/controllers/projects/prometheus/alerts_controller.rb: the integration token, not a user',
  },
  listCurrentUserEvents: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/events.rb `get /events`: authenticate! (read_user or read_api allowed on GET)',
  },
  listUserEvents: {
    target: 'project',
    // Our API specification requires a token (scope read_user or api) on /events and /users/:id/events;
    // GitLab itself lets anonymous callers read a public user's events. The specification wins.
    anonymous: 401,
    see: 'anyone',
    params: (c) => ({ user_id: c.world.people.owner.id }),
    // Oldest first: the owner's activity across every world and fresh resource passes one page of 100,
    // and what the checks look for comes from the worlds' set-up, before the rest.
    query: () => ({ ...perPage(), sort: 'asc' }),
    lists: activity(true),
    source:
      'lib/api/events.rb `get ":id/events"` under /users: no authenticate!; EventsFinder keeps the events ' +
      'visible_to_user? (app/models/event.rb)',
  },
  listProjectEvents: {
    target: 'project',
    see: VISIBLE,
    query: perPage,
    lists: activity(false),
    source: 'lib/api/events.rb (project events): user_project; Event#visible_to_user? per target',
  },
  // The live streams are not GitLab's: each answers who may open it as its list does (the events it then
  // sends are checked one by one, apps/events/src/stream/activity-stream.component.spec.ts).
  streamCurrentUserEvents: {
    target: 'none',
    see: 'signed-in',
    source: 'as lib/api/events.rb `get /events` (authenticate!); the stream is not in GitLab',
  },
  streamUserEvents: {
    target: 'project',
    anonymous: 401,
    see: 'anyone',
    params: (c) => ({ user_id: c.world.people.owner.id }),
    source: 'as lib/api/events.rb `get ":id/events"` under /users (a token required here); not in GitLab',
  },
  streamProjectEvents: {
    target: 'project',
    see: VISIBLE,
    source: 'as lib/api/events.rb (project events): user_project; the stream is not in GitLab',
  },
};
