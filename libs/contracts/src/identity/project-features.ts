import { z } from 'zod';
import { booleanParam } from '../primitives';

/**
 * Project features and their access levels (app/models/project_feature.rb): `disabled`, `private`
 * (members only), `enabled` (whoever sees the project); pages also takes `public`.
 */
export const PROJECT_FEATURES = [
  'issues',
  'repository',
  'merge_requests',
  'forking',
  'wiki',
  'builds',
  'snippets',
  'pages',
  'analytics',
  'container_registry',
  'security_and_compliance',
  'releases',
  'environments',
  'feature_flags',
  'infrastructure',
  'monitor',
] as const;
export type ProjectFeature = (typeof PROJECT_FEATURES)[number];

export const FEATURE_ACCESS_LEVELS = ['disabled', 'private', 'enabled'] as const;
export const featureAccessLevel = z.enum(['disabled', 'private', 'enabled', 'public']);
export type FeatureAccessLevel = z.infer<typeof featureAccessLevel>;

/** The old boolean switches (ProjectFeaturesCompatibility): true → `enabled`, false → `disabled`. */
export const FEATURE_SWITCHES = {
  issues_enabled: 'issues',
  merge_requests_enabled: 'merge_requests',
  wiki_enabled: 'wiki',
  jobs_enabled: 'builds',
  snippets_enabled: 'snippets',
  container_registry_enabled: 'container_registry',
} as const satisfies Record<string, ProjectFeature>;

const level = z.enum(FEATURE_ACCESS_LEVELS);

/** The feature parameters of POST and PUT /projects (lib/api/helpers/projects_helpers.rb). */
export const projectFeatureParams = z.object({
  issues_enabled: booleanParam.optional(),
  merge_requests_enabled: booleanParam.optional(),
  wiki_enabled: booleanParam.optional(),
  jobs_enabled: booleanParam.optional(),
  snippets_enabled: booleanParam.optional(),
  container_registry_enabled: booleanParam.optional(),
  issues_access_level: level.optional(),
  repository_access_level: level.optional(),
  merge_requests_access_level: level.optional(),
  forking_access_level: level.optional(),
  wiki_access_level: level.optional(),
  builds_access_level: level.optional(),
  snippets_access_level: level.optional(),
  pages_access_level: featureAccessLevel.optional(),
  analytics_access_level: level.optional(),
  container_registry_access_level: level.optional(),
  security_and_compliance_access_level: level.optional(),
  releases_access_level: level.optional(),
  environments_access_level: level.optional(),
  feature_flags_access_level: level.optional(),
  infrastructure_access_level: level.optional(),
  monitor_access_level: level.optional(),
});
export type ProjectFeatureParams = z.infer<typeof projectFeatureParams>;
export const PROJECT_FEATURE_PARAMS = Object.keys(
  projectFeatureParams.shape,
) as (keyof ProjectFeatureParams)[];
