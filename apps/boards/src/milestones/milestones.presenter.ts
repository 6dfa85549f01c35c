import type { MilestoneEntity, NamespaceContext, ProjectMilestoneEntity } from '@gl/contracts';
import type { MilestoneDoc } from '../boards.models';
import type { ProjectMilestoneDoc } from './project-milestones.model';

/** Entities::Milestone after its parent's id, the same for group and project milestones. */
export function milestoneFields(
  milestone: Pick<
    MilestoneDoc,
    'iid' | 'title' | 'description' | 'state' | 'createdAt' | 'updatedAt' | 'dueDate' | 'startDate'
  >,
  parentWebUrl: string,
) {
  return {
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt.toISOString(),
    updated_at: milestone.updatedAt.toISOString(),
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    web_url: `${parentWebUrl}/-/milestones/${milestone.iid}`,
  };
}

export function presentMilestone(milestone: MilestoneDoc, groupWebUrl: string): MilestoneEntity {
  return {
    id: milestone._id,
    iid: milestone.iid,
    group_id: milestone.groupId,
    ...milestoneFields(milestone, groupWebUrl),
  };
}

/** Entities::Milestone of a project milestone (`project_id`, the project's web URL). */
export function presentProjectMilestone(
  m: ProjectMilestoneDoc,
  ns: NamespaceContext,
): ProjectMilestoneEntity {
  return { id: m._id, iid: m.iid, project_id: m.projectId, ...milestoneFields(m, ns.webUrl) };
}

/**
 * The web URL of one of a project's groups: the project's namespace path cut at that group's depth (the
 * ancestors are listed root first), after the instance's relative URL root if it has one.
 */
export function projectGroupWebUrl(ns: NamespaceContext, groupId: number): string {
  const depth = ns.ancestorGroupIds.indexOf(groupId) + 1;
  const url = new URL(ns.webUrl);
  const segments = url.pathname.split('/').filter(Boolean);
  const groupsStart = segments.length - 1 - ns.ancestorGroupIds.length;
  const groupPath = [
    ...segments.slice(0, groupsStart),
    'groups',
    ...segments.slice(groupsStart, groupsStart + depth),
  ];
  return `${url.origin}/${groupPath.join('/')}`;
}
