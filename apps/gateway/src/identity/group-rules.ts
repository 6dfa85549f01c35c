import type { CreateGroupBody, UpdateGroupBody } from '@gl/contracts';
import { TEXT_LIMITS, lengthErrors } from '@gl/contracts';
import { HttpError } from '@gl/service-kit';
import { moreVisible, visibilitiesAbove } from './access';
import type { IdentityStores } from './identity.stores';
import type { NamespaceDoc } from './identity.models';
import { ValidationErrors, nameErrors, namespacePathErrors, rubyInspect } from './paths';

/**
 * GitLab's Group model validations (app/models/namespace.rb, app/models/group.rb): name, description and
 * path format, a path nobody holds, and visibility no higher than the parent's nor lower than what the
 * group contains. They only read; the groups service decides what to do with the errors.
 */
type Visibility = NamespaceDoc['visibility'];

/** POST /groups renders model errors inside a string: `Failed to save group {:path=>["..."]}`. */
export function failedToSave(fields: Record<string, string[]>): HttpError {
  return new HttpError(400, { message: `Failed to save group ${rubyInspect(fields)}` });
}

function parentVisibilityError(visibility: Visibility, parent: NamespaceDoc): string {
  return `${visibility} is not allowed since the parent group has a ${parent.visibility} visibility.`;
}

/** Adds 'has already been taken' when the path is otherwise valid but its route is held. */
export async function pathTakenError(
  stores: Pick<IdentityStores, 'routes'>,
  errors: ValidationErrors,
  fullPath: string,
): Promise<void> {
  if (!errors.has('path') && (await stores.routes.taken(fullPath)))
    errors.add('path', 'has already been taken');
}

/** A new group under `parent` (null: top level) at `fullPath`. */
export async function createErrors(
  stores: IdentityStores,
  input: CreateGroupBody,
  parent: NamespaceDoc | null,
  fullPath: string,
): Promise<ValidationErrors> {
  const visibility = input.visibility ?? 'private';
  const errors = new ValidationErrors();
  errors.add('name', nameErrors(input.name));
  errors.add('description', lengthErrors(input.description, TEXT_LIMITS.namespaceDescription));
  errors.add('path', namespacePathErrors(input.path));
  if (parent && moreVisible(visibility, parent.visibility)) {
    errors.add('visibility_level', parentVisibilityError(visibility, parent));
  }
  await pathTakenError(stores, errors, fullPath);
  return errors;
}

/** The edited fields of an existing group; the path's route is checked by the caller, only when it moves. */
export async function updateErrors(
  stores: IdentityStores,
  group: NamespaceDoc,
  input: UpdateGroupBody,
): Promise<ValidationErrors> {
  const errors = new ValidationErrors();
  if (input.name !== undefined) errors.add('name', nameErrors(input.name));
  errors.add('description', lengthErrors(input.description, TEXT_LIMITS.namespaceDescription));
  if (input.path !== undefined) errors.add('path', namespacePathErrors(input.path));
  const visibility = input.visibility;
  if (visibility !== undefined && visibility !== group.visibility) {
    const parent = group.parentId === null ? null : await stores.namespaces.findById(group.parentId);
    if (parent && moreVisible(visibility, parent.visibility)) {
      errors.add('visibility_level', parentVisibilityError(visibility, parent));
    }
    const above = visibilitiesAbove(visibility);
    if (await stores.projects.hasUnderGroupIn(group._id, above)) {
      errors.add(
        'visibility_level',
        `${visibility} is not allowed since this group contains projects with higher visibility.`,
      );
    }
    if (await stores.namespaces.hasDescendantIn(group._id, above)) {
      errors.add(
        'visibility_level',
        `${visibility} is not allowed since there are sub-groups with higher visibility.`,
      );
    }
  }
  return errors;
}
