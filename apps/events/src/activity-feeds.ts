import type { ActivityEventsQuery, InternalContext, Principal } from '@gl/contracts';
import { activityFilter, both, type ActivityCheck } from './activity-criteria';
import type { ActivityLogStore } from './activity-log.store';
import type { AccessCache } from './access.cache';
import { activityVisibility, authorizedProjects, projectActivityCheck } from './events.visibility';
import {
  streams,
  type Order,
  type PageWindow,
  type TimelinePage,
  type TimelineStore,
} from './timeline/timeline.store';

/** Scope=all from more projects than this reads the all-projects stream instead of merging theirs. */
const MAX_MERGED_PROJECTS = 50;

const orderOf = (query: ActivityEventsQuery): Order => (query.sort === 'asc' ? 'asc' : 'desc');

/**
 * The three lists of activity events (EventsFinder's scopes): which streams (or the activity log) answer
 * each, and which check every event passes before paging.
 */
export function createActivityFeeds(timeline: TimelineStore, log: ActivityLogStore) {
  const streamPage = (stream: string, query: ActivityEventsQuery, window: PageWindow, check: ActivityCheck) =>
    timeline.page([stream], orderOf(query), window, check);

  return {
    /** An author's events (/events, /users/:id/events), those the caller may read. */
    async author(
      access: AccessCache,
      viewer: Principal | null,
      authorId: number,
      query: ActivityEventsQuery,
      window: PageWindow,
    ): Promise<TimelinePage> {
      const check = both(await activityVisibility(access, viewer), activityFilter(query));
      return streamPage(streams.author(authorId), query, window, check);
    },

    /** `authorized_projects`' events (scope=all): the all-projects stream, or a merge of few projects' streams. */
    async authorizedProjects(
      access: AccessCache,
      principal: Principal,
      query: ActivityEventsQuery,
      window: PageWindow,
    ): Promise<TimelinePage> {
      const authorized = await authorizedProjects(access, principal);
      // Each event's target is read by the same rule as on its own service (merge requests, code, ...).
      const filter = both(authorized.targets, activityFilter(query));
      if (authorized.coversAllWithActivity) return streamPage(streams.allProjects, query, window, filter);
      const ids = authorized.ids;
      if (ids.size > MAX_MERGED_PROJECTS) {
        return streamPage(
          streams.allProjects,
          query,
          window,
          both((a) => ids.has(a.projectId!), filter),
        );
      }
      return timeline.page([...ids].map(streams.project), orderOf(query), window, filter);
    },

    /** A project's events; the gateway's signed access level and visibility decide what the caller reads. */
    async project(
      ctx: InternalContext,
      projectId: number,
      query: ActivityEventsQuery,
      window: PageWindow,
    ): Promise<TimelinePage> {
      const stream = streams.project(projectId);
      const visibility = await projectActivityCheck(ctx, () => timeline.sensitiveCount(stream));
      const filter = activityFilter(query);
      // A filter alone (the caller reads every event of the project) is answered by the log's indexes.
      if (visibility === null && filter !== null) {
        return log.projectPage(projectId, query, orderOf(query), window);
      }
      return streamPage(stream, query, window, both(visibility, filter));
    },
  };
}

export type ActivityFeeds = ReturnType<typeof createActivityFeeds>;
