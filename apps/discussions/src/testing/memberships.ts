/**
 * The data of an identity `member.added` event as the gateway publishes it: `userId` holds `accessLevel`
 * in the group or project, without an expiry date.
 */
export function memberEventFields(
  sourceType: 'group' | 'project',
  sourceId: number,
  userId: number,
  accessLevel: number,
) {
  return { sourceType, sourceId, userId, accessLevel, expiresAt: null };
}
