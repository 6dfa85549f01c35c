import { ModelError } from '@gl/service-kit';
import type { IdentityDeps } from './identity.deps';
import { nextRevision } from './revisions';
import type { RouteSource } from './routes.store';

export interface RoutableEdit {
  route: RouteSource;
  oldPath: string;
  newPath: string;
  visibilityChanged: boolean;
  /** Writes the edit and its event, which carries `revision` when the visibility changes. */
  write(revision: number | undefined): Promise<void>;
  /** What else moves before the old path is given back (a group's subtree). */
  afterWrite?(): Promise<void>;
}

/**
 * Saves an edit of a group or project, in the order that keeps paths and access consistent: a new full
 * path's route is claimed before anything is written, so a taken path fails with nothing changed; a
 * visibility change takes an identity revision (revisions.ts), recorded once the write is done; the old
 * route is released last.
 */
export async function saveRoutableEdit(deps: IdentityDeps, edit: RoutableEdit): Promise<void> {
  const { routes, revisions } = deps.stores;
  const moved = edit.newPath.toLowerCase() !== edit.oldPath.toLowerCase();
  if (moved && !(await routes.claim(edit.newPath, edit.route)))
    throw ModelError.fields({ path: ['has already been taken'] });
  const revision = edit.visibilityChanged ? await nextRevision(deps) : undefined;
  await edit.write(revision);
  if (revision !== undefined) await revisions.raiseVisibility(revision);
  await edit.afterWrite?.();
  if (moved) await routes.release(edit.oldPath, edit.route);
  deps.outbox.kick();
}
