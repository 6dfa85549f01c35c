import { reportingMigration, type Migration } from '@gl/service-kit';
import type { ProjectRefDoc } from '../copies/copies.models';
import { createPositionsStore } from '../issues/positions.store';
import { positionScopeOfProject } from '../lists/root-scope';
import { compiledDiscussionsModels } from './compiled-models';

/** Projects between two progress lines. */
const PROGRESS_EVERY = 100;

/**
 * Every issue in its project's scope (`positionScope`, lists/root-scope.ts), which group lists now read
 * issues by: incident issues were written without one, issues older than positions had none, and issues
 * of a project transferred before this release kept their old root's. Project by project from the copy of
 * projects; a project already right changes nothing. Issues of projects the copy does not know yet are
 * scoped when their project's event is applied (copies/identity.projection.ts).
 */
export function issueRootScopesMigration(version: number): Migration {
  return reportingMigration(
    version,
    "noteables: every issue in its project's root scope (positionScope) for group lists",
    'noteables: root scopes set',
    async (connection, logger) => {
      const models = compiledDiscussionsModels(
        connection,
        'noteables',
        'positionClaims',
        'positionLeases',
        'projects',
      );
      const positions = createPositionsStore(models);
      const projects = await models.projects
        .find({ destroyed: { $ne: true } })
        .select({ rootGroupId: 1 })
        .lean<Pick<ProjectRefDoc, '_id' | 'rootGroupId'>[]>();
      let changed = 0;
      for (const [index, project] of projects.entries()) {
        const scope = positionScopeOfProject(project._id, project.rootGroupId ?? null);
        changed += await positions.rescopeProject(project._id, scope);
        if ((index + 1) % PROGRESS_EVERY === 0) {
          logger.info({ projects: index + 1, of: projects.length, changed }, 'noteables: root scopes');
        }
      }
      return { projects: projects.length, changed };
    },
  );
}
