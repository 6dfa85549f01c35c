import type { EventActor } from '@gl/contracts';
import type { HookProjectDoc } from '../delivery/delivery.models';

/** GitLab's `Gitlab::Access` visibility levels, as hook payloads give them. */
const VISIBILITY_LEVELS = { private: 0, internal: 10, public: 20 } as const;

/** What a payload needs of its project: the copy identity events keep, or just its id when none came yet. */
export interface PayloadProject {
  id: number;
  name: string;
  fullPath: string;
  /** The namespace's name (the last group's path as known here, or the user's). */
  namespace: string;
  visibility: HookProjectDoc['visibility'];
  /** Its features' levels when its copy has them (signed into discussions' reads). */
  features?: HookProjectDoc['features'];
}

export function payloadProject(id: number, copy: HookProjectDoc | null): PayloadProject {
  if (!copy) {
    return { id, name: `project-${id}`, fullPath: `project-${id}`, namespace: '', visibility: 'private' };
  }
  const segments = copy.fullPath.split('/');
  return {
    id,
    name: copy.name,
    fullPath: copy.fullPath,
    namespace: segments.length > 1 ? segments[segments.length - 2]! : '',
    visibility: copy.visibility,
    ...(copy.features && { features: copy.features }),
  };
}

/** Project#hook_attrs (app/models/project.rb), with the host from the external URL. */
export function projectHookAttrs(project: PayloadProject, externalUrl: string) {
  const base = externalUrl.replace(/\/+$/, '');
  const host = new URL(base).host.replace(/:\d+$/, '');
  const webUrl = `${base}/${project.fullPath}`;
  const sshUrl = `git@${host}:${project.fullPath}.git`;
  const httpUrl = `${webUrl}.git`;
  return {
    id: project.id,
    name: project.name,
    description: null as string | null,
    web_url: webUrl,
    avatar_url: null as string | null,
    git_ssh_url: sshUrl,
    git_http_url: httpUrl,
    namespace: project.namespace,
    visibility_level: VISIBILITY_LEVELS[project.visibility],
    path_with_namespace: project.fullPath,
    default_branch: 'main',
    ci_config_path: null as string | null,
    homepage: webUrl,
    url: sshUrl,
    ssh_url: sshUrl,
    http_url: httpUrl,
  };
}

/** Project#hook_attrs' sibling for `repository` (Gitlab::DataBuilder::Issuable#build). */
export function repositoryAttrs(project: PayloadProject, externalUrl: string) {
  const attrs = projectHookAttrs(project, externalUrl);
  return {
    name: attrs.name,
    url: attrs.url,
    description: attrs.description,
    homepage: attrs.homepage,
  };
}

/**
 * User#hook_attrs (app/models/user.rb): the e-mail is "[REDACTED]" since GitLab 16; the avatar is taken
 * from an entity that shows the same user when there is one.
 */
export function userHookAttrs(
  actor: NonNullable<EventActor>,
  known: ({ id: number; avatar_url?: string | null } | null | undefined)[],
) {
  const same = known.find((user) => user?.id === actor.id);
  return {
    id: actor.id,
    name: actor.name,
    username: actor.username,
    avatar_url: same?.avatar_url ?? null,
    email: '[REDACTED]',
  };
}

/** User#hook_attrs of a user an entity shows (an assignee, a reviewer): what it shows of them. */
export function userEntityHookAttrs(user: {
  id: number;
  name?: string;
  username?: string;
  avatar_url?: string | null;
}) {
  return {
    id: user.id,
    name: user.name ?? '',
    username: user.username ?? '',
    avatar_url: user.avatar_url ?? null,
    email: '[REDACTED]',
  };
}

/** Who acted when an event names nobody: GitLab's Ghost User. */
export const GHOST_USER = { id: 0, username: 'ghost', name: 'Ghost User' };
