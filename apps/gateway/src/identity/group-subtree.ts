import type { EventActor } from '@gl/contracts';
import type { EventOrigin } from '@gl/service-kit';
import { EVENT_TYPES, groupEvent, projectEvent } from './identity.events';
import type { IdentityStores } from './identity.stores';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import type { RouteSource } from './routes.store';

/**
 * After a group is renamed or moved, everything under it follows (Route#rename_descendants in
 * app/models/route.rb): each subgroup's full path and full name and each project's full path are
 * rebased on the group's new ones, their routes moved, and each change published as an update.
 */
async function moveRoute(
  stores: IdentityStores,
  oldPath: string,
  newPath: string,
  source: RouteSource,
): Promise<void> {
  if (oldPath.toLowerCase() === newPath.toLowerCase()) return;
  // The new prefix was free, so anything under it can only be a leftover: take it over.
  await stores.routes.takeOver(newPath, source);
  await stores.routes.release(oldPath, source);
}

const rebase = (value: string, oldPrefix: string, newPrefix: string): string =>
  newPrefix + value.slice(oldPrefix.length);

export async function rewriteSubtree(
  stores: IdentityStores,
  before: NamespaceDoc,
  after: NamespaceDoc,
  origin: EventOrigin,
  actor: EventActor,
): Promise<void> {
  const subgroups = await stores.namespaces.descendantsOf(before._id);
  for (const subgroup of subgroups) {
    const next: NamespaceDoc = {
      ...subgroup,
      fullPath: rebase(subgroup.fullPath, before.fullPath, after.fullPath),
      fullName: rebase(subgroup.fullName, before.fullName, after.fullName),
      updatedAt: new Date(),
    };
    next.fullPathLower = next.fullPath.toLowerCase();
    await moveRoute(stores, subgroup.fullPath, next.fullPath, {
      sourceType: 'namespace',
      sourceId: subgroup._id,
    });
    const { fullPath, fullPathLower, fullName, updatedAt } = next;
    await stores.namespaces.update(subgroup._id, { fullPath, fullPathLower, fullName, updatedAt }, [
      groupEvent(origin, EVENT_TYPES.identity.groupUpdated, actor, next),
    ]);
  }
  if (before.fullPath === after.fullPath) return;
  const projects = await stores.projects.underGroup(before._id);
  for (const project of projects) {
    const fullPath = rebase(project.fullPath, before.fullPath, after.fullPath);
    const next: ProjectDoc = {
      ...project,
      fullPath,
      fullPathLower: fullPath.toLowerCase(),
      updatedAt: new Date(),
    };
    await moveRoute(stores, project.fullPath, fullPath, { sourceType: 'project', sourceId: project._id });
    await stores.projects.update(
      project._id,
      { fullPath, fullPathLower: next.fullPathLower, updatedAt: next.updatedAt },
      [projectEvent(origin, EVENT_TYPES.identity.projectUpdated, actor, next)],
    );
  }
}
