import { createHash } from 'node:crypto';
import type { NamespaceDoc, ProjectDoc, UserDoc } from './identity.models';

/** web_url fields point at the instance's external URL (GITLAB_EXTERNAL_URL), as GitLab renders them. */
export function userWebUrl(externalUrl: string, user: Pick<UserDoc, 'username'>): string {
  return `${externalUrl}/${user.username}`;
}

export function avatarUrl(user: Pick<UserDoc, 'emailLower'>): string {
  // GitLab falls back to Gravatar for users without an uploaded avatar.
  return `https://www.gravatar.com/avatar/${user.emailLower ? hashEmail(user.emailLower) : ''}?s=80&d=identicon`;
}

function hashEmail(email: string): string {
  return createHash('sha256').update(email).digest('hex');
}

export function groupWebUrl(externalUrl: string, group: Pick<NamespaceDoc, 'fullPath'>): string {
  return `${externalUrl}/groups/${group.fullPath}`;
}

export function projectWebUrl(externalUrl: string, project: Pick<ProjectDoc, 'fullPath'>): string {
  return `${externalUrl}/${project.fullPath}`;
}
