import type { EventActor } from '@gl/contracts';
import { pushEvents, type EventOrigin } from '@gl/service-kit';
import { EVENT_TYPES, groupEvent, projectEvent } from './identity.events';
import type { IdentityModels, NamespaceDoc, ProjectDoc } from './identity.models';
import { releaseRoute } from './paths';

/**
 * After a group is renamed or moved, everything under it follows (Route#rename_descendants in
 * app/models/route.rb): each subgroup's full path and full name and each project's full path are
 * rebased on the group's new ones, their routes moved, and each change published as an update.
 */
async function moveRoute(
  models: IdentityModels,
  oldPath: string,
  newPath: string,
  source: { sourceType: 'namespace' | 'project'; sourceId: number },
): Promise<void> {
  if (oldPath.toLowerCase() === newPath.toLowerCase()) return;
  // The new prefix was free, so anything under it can only be a leftover: take it over.
  await models.routes.updateOne({ _id: newPath.toLowerCase() }, { $set: source }, { upsert: true });
  await releaseRoute(models, oldPath, source);
}

const rebase = (value: string, oldPrefix: string, newPrefix: string): string =>
  newPrefix + value.slice(oldPrefix.length);

export async function rewriteSubtree(
  models: IdentityModels,
  before: NamespaceDoc,
  after: NamespaceDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  const subgroups = await models.namespaces.find({ ancestorIds: before._id }).lean();
  for (const subgroup of subgroups) {
    const next: NamespaceDoc = {
      ...subgroup,
      fullPath: rebase(subgroup.fullPath, before.fullPath, after.fullPath),
      fullName: rebase(subgroup.fullName, before.fullName, after.fullName),
      updatedAt: new Date(),
    };
    next.fullPathLower = next.fullPath.toLowerCase();
    await moveRoute(models, subgroup.fullPath, next.fullPath, {
      sourceType: 'namespace',
      sourceId: subgroup._id,
    });
    await models.namespaces.updateOne(
      { _id: subgroup._id },
      pushEvents(
        {
          $set: {
            fullPath: next.fullPath,
            fullPathLower: next.fullPathLower,
            fullName: next.fullName,
            updatedAt: next.updatedAt,
          },
        },
        [groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, next)],
      ),
    );
  }
  if (before.fullPath === after.fullPath) return;
  const projects = await models.projects.find({ ancestorGroupIds: before._id }).lean();
  for (const project of projects) {
    const fullPath = rebase(project.fullPath, before.fullPath, after.fullPath);
    const next: ProjectDoc = {
      ...project,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      updatedAt: new Date(),
    };
    await moveRoute(models, project.fullPath, fullPath, { sourceType: 'project', sourceId: project._id });
    await models.projects.updateOne(
      { _id: project._id },
      pushEvents({ $set: { fullPath, fullPathLower: next.fullPathLower, updatedAt: next.updatedAt } }, [
        projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, next),
      ]),
    );
  }
}
