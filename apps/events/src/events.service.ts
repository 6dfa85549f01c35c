import type { FilterQuery } from 'mongoose';
import type { ActivityEventEntity, ActivityEventsQuery, InternalContext, Principal } from '@gl/contracts';
import type { ProjectionVersion } from '@gl/service-kit';
import { authorizedFilter, criteriaFilter, projectReachFilter, readableFilter } from './activity-access';
import { createActivityLogStore, type ActivityPage, type Order, type PageWindow } from './activity-log.store';
import type { AccessCache } from './access.cache';
import type { ActivityDoc, EventsModels, UserDoc } from './events.models';
import { authorIdsOf, authorsOf, presentActivity } from './events.presenter';
import { authorizedProjects } from './events.visibility';
import { createAuthorCopies } from './author-copies';
import { createUsersStore } from './users.store';

const orderOf = (query: ActivityEventsQuery): Order => (query.sort === 'asc' ? 'asc' : 'desc');

/** A page of a list as the API answers it: the entities, and what the pagination headers need. */
export interface PresentedPage {
  entities: ActivityEventEntity[];
  total: number | null;
  hasNext: boolean;
}

/**
 * The three lists of activity events (EventsFinder's scopes), each one query of the activity log: its
 * scope, the list's filters and what the caller reads (activity-access.ts); then the page presented with
 * its authors.
 */
export function createEventsService(
  models: Pick<EventsModels, 'activities' | 'users'>,
  /** This process's identity projection changes: the authors shown are read again after one. */
  projections: Pick<ProjectionVersion, 'value'>,
) {
  const log = createActivityLogStore(models.activities);
  const users = createUsersStore(models.users);
  const authorCopies = createAuthorCopies(users, projections);

  /**
   * The page with its authors from the user projection. `known`: the one author every item has (a user's
   * own list, whose copy was just read to find them), so their copy is not read again.
   */
  async function present(page: ActivityPage, externalUrl: string, known?: UserDoc): Promise<PresentedPage> {
    const ids = authorIdsOf(page.items);
    const copies = known && ids.every((id) => id === known._id) ? [known] : await authorCopies.byIds(ids);
    const authors = authorsOf(page.items, copies, externalUrl);
    return {
      entities: page.items.map((doc) => presentActivity(doc, authors)),
      total: page.total,
      hasNext: page.hasNext,
    };
  }
  const list = (filter: FilterQuery<ActivityDoc>, query: ActivityEventsQuery, window: PageWindow) =>
    log.page({ ...criteriaFilter(query), ...filter }, orderOf(query), window);

  return {
    /** `:user_id` of /users/:user_id/events (an id or a username); a deleted user is not found. */
    findUser: (idOrUsername: string): Promise<UserDoc | null> => users.find(idOrUsername),

    /**
     * An author's events (/events, /users/:id/events), those the caller may read. `author`: their copy,
     * when already read (findUser), or their id.
     */
    async author(
      ctx: InternalContext,
      access: AccessCache,
      author: number | UserDoc,
      query: ActivityEventsQuery,
      window: PageWindow,
    ): Promise<PresentedPage> {
      const authorId = typeof author === 'number' ? author : author._id;
      const readable = await readableFilter(access, ctx.principal);
      const page = await list({ authorId, ...readable }, query, window);
      return present(page, ctx.externalUrl, typeof author === 'number' ? undefined : author);
    },

    /** `authorized_projects`' events (scope=all): the caller's projects, each target read by the same rule. */
    async authorizedProjects(
      ctx: InternalContext,
      access: AccessCache,
      principal: Principal,
      query: ActivityEventsQuery,
      window: PageWindow,
    ): Promise<PresentedPage> {
      const authorized = await authorizedProjects(access, principal);
      const page = await list(authorizedFilter(authorized, principal), query, window);
      return present(page, ctx.externalUrl);
    },

    /** A project's events; the gateway's signed access level and visibility decide what the caller reads. */
    async project(
      ctx: InternalContext,
      projectId: number,
      query: ActivityEventsQuery,
      window: PageWindow,
    ): Promise<PresentedPage> {
      const page = await list({ projectId, ...projectReachFilter(ctx) }, query, window);
      return present(page, ctx.externalUrl);
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
