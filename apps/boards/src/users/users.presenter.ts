import type { UserSummary } from '@gl/contracts';
import { knownUser, userSummary } from '@gl/service-kit';
import type { UserDoc } from '../boards.models';

export function presentUser(user: UserDoc, externalUrl: string): UserSummary {
  return userSummary(knownUser(user), externalUrl);
}
