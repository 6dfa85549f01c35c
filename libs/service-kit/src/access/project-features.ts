import {
  ACCESS_LEVELS,
  type FeatureAccessLevel,
  type NamespaceContext,
  type ProjectFeature,
} from '@gl/contracts';

/** A project's feature levels as identity events carry them (absent or null: every feature `enabled`). */
export type FeatureLevels = Partial<Record<string, FeatureAccessLevel>> | null | undefined;

/**
 * ProjectFeature::PRIVATE_FEATURES_MIN_ACCESS_LEVEL (app/models/project_feature.rb): the role a member needs
 * to use a feature set to `private`; every other feature needs Guest.
 */
const PRIVATE_MIN_LEVEL: Partial<Record<ProjectFeature, number>> = {
  merge_requests: ACCESS_LEVELS.reporter,
  container_registry: ACCESS_LEVELS.reporter,
};

/**
 * ProjectFeature#feature_available?(feature, user) for a caller who can read the project: `disabled` for
 * no one, `private` for members with the feature's minimum role (and admins, `accessLevel` 60), `enabled`
 * and `public` for every reader.
 */
export function featureAvailable(
  features: FeatureLevels,
  feature: ProjectFeature,
  accessLevel: number,
): boolean {
  const level = features?.[feature] ?? 'enabled';
  if (level === 'disabled') return false;
  if (level === 'private') return accessLevel >= (PRIVATE_MIN_LEVEL[feature] ?? ACCESS_LEVELS.guest);
  return true;
}

/**
 * The addressed project's feature levels as the gateway signed them, or undefined when the context has
 * none (a group, or a context signed before they were carried): then the caller reads its own copy.
 */
export function signedFeatureLevels(
  namespace: NamespaceContext | null | undefined,
): FeatureLevels | undefined {
  if (!namespace || namespace.kind !== 'project') return undefined;
  return namespace.features;
}
