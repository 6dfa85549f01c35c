import type { DiscussionsModels } from '../discussions.models';
import type { GroupRefDoc } from './copies.models';

/**
 * A group's subtree from the identity copy: the projects of the group and its subgroups (its root group's
 * projects, along the `rootGroupId` index, then those below the group), and the group with the subgroups
 * those projects lie in.
 */
export async function subtreeOf(
  models: Pick<DiscussionsModels, 'projects' | 'groups'>,
  groupId: number,
): Promise<{ projectIds: number[]; groupIds: number[] }> {
  const group = await models.groups.findById(groupId).lean<GroupRefDoc>();
  const root = group?.rootGroupId ?? groupId;
  const tree = await models.projects.find({ rootGroupId: root }).select({ ancestorGroupIds: 1 }).lean();
  const below = tree.filter((p) => p.ancestorGroupIds.includes(groupId));
  const groupIds = new Set([groupId]);
  for (const project of below) {
    const chain = project.ancestorGroupIds;
    for (const id of chain.slice(chain.indexOf(groupId))) groupIds.add(id);
  }
  return { projectIds: below.map((p) => p._id), groupIds: [...groupIds] };
}
