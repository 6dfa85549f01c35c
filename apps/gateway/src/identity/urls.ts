import { gravatarUrl } from '@gl/service-kit';
import type { NamespaceDoc, ProjectDoc, UserDoc } from './identity.models';

/** web_url fields point at the instance's external URL (GITLAB_EXTERNAL_URL), as GitLab renders them. */
export function userWebUrl(externalUrl: string, user: Pick<UserDoc, 'username'>): string {
  return `${externalUrl}/${user.username}`;
}

/** GitLab falls back to Gravatar for users without an uploaded avatar: one URL everywhere (service kit). */
export function avatarUrl(user: Pick<UserDoc, 'emailLower'>): string | null {
  return gravatarUrl(user.emailLower);
}

export function groupWebUrl(externalUrl: string, group: Pick<NamespaceDoc, 'fullPath'>): string {
  return `${externalUrl}/groups/${group.fullPath}`;
}

export function projectWebUrl(externalUrl: string, project: Pick<ProjectDoc, 'fullPath'>): string {
  return `${externalUrl}/${project.fullPath}`;
}
