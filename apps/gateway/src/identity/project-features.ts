import {
  FEATURE_SWITCHES,
  PROJECT_FEATURES,
  type FeatureAccessLevel,
  type ProjectFeature,
  type ProjectFeatureParams,
} from '@gl/contracts';
import type { ProjectDoc } from './identity.models';

export type FeatureLevels = Record<ProjectFeature, FeatureAccessLevel>;

/** A new project's levels (ProjectFeature defaults): everything enabled but these. */
function defaultLevel(feature: ProjectFeature, project: Pick<ProjectDoc, 'visibility'>): FeatureAccessLevel {
  if (feature === 'security_and_compliance') return 'private';
  if (feature === 'pages') return project.visibility === 'public' ? 'enabled' : 'private';
  return 'enabled';
}

/** Every feature's level: what was set, else the default. */
export function featureLevels(project: Pick<ProjectDoc, 'visibility' | 'features'>): FeatureLevels {
  const levels = {} as FeatureLevels;
  for (const feature of PROJECT_FEATURES) {
    levels[feature] = project.features?.[feature] ?? defaultLevel(feature, project);
  }
  return levels;
}

/**
 * The levels a create or update sets: the boolean switches (ProjectFeaturesCompatibility: true →
 * `enabled`, false → `disabled`), then the `*_access_level` parameters, which win when both are given.
 * Null when the parameters change no feature.
 */
export function requestedFeatures(input: ProjectFeatureParams): Partial<FeatureLevels> | null {
  const set: Partial<FeatureLevels> = {};
  for (const [param, feature] of Object.entries(FEATURE_SWITCHES) as [
    keyof typeof FEATURE_SWITCHES,
    ProjectFeature,
  ][]) {
    const value = input[param];
    if (value !== undefined) set[feature] = value ? 'enabled' : 'disabled';
  }
  for (const feature of PROJECT_FEATURES) {
    const value = input[`${feature}_access_level`];
    if (value !== undefined) set[feature] = value;
  }
  return Object.keys(set).length > 0 ? set : null;
}

/** Entities::Project's feature fields: the `*_enabled` switches and every `*_access_level`. */
export function featureFields(project: Pick<ProjectDoc, 'visibility' | 'features'>) {
  const levels = featureLevels(project);
  const on = (feature: ProjectFeature): boolean => levels[feature] !== 'disabled';
  const accessLevels = Object.fromEntries(
    PROJECT_FEATURES.map((feature) => [`${feature}_access_level`, levels[feature]]),
  ) as Record<`${ProjectFeature}_access_level`, FeatureAccessLevel>;
  return {
    container_registry_enabled: on('container_registry'),
    issues_enabled: on('issues'),
    merge_requests_enabled: on('merge_requests'),
    wiki_enabled: on('wiki'),
    jobs_enabled: on('builds'),
    snippets_enabled: on('snippets'),
    ...accessLevels,
  };
}
