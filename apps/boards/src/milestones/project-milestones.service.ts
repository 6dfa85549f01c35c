import type { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type NamespaceContext,
  type ProjectMilestoneRemovedData,
  type createMilestoneBody,
  type updateMilestoneBody,
} from '@gl/contracts';
import {
  HttpError,
  ModelError,
  createEvent,
  eventActor,
  excerpt,
  requestOrigin,
  type Outbox,
  type PageRequest,
} from '@gl/service-kit';
import type { MilestoneDoc } from '../boards.models';
import type { MilestonesService } from './milestones.service';
import type { BoardTargets } from '../labels/project-labels.service';
import type { ProjectMilestoneDoc } from './project-milestones.model';
import type {
  AvailableMilestone,
  ProjectMilestoneFilter,
  ProjectMilestonesStore,
} from './project-milestones.store';
import {
  SERVICE_PRODUCER,
  foundMilestone,
  milestonePublishing,
  openMilestone,
  reviseMilestone,
  type EventWriter,
} from './milestone-writes';

export type { AvailableMilestone, ProjectMilestoneDoc };

const { projectMilestoneRemoved } = DOMAIN_EVENT_TYPES.boards;
const TITLE_TAKEN = 'already being used for another group or project milestone.';
const TITLE_MAX = 255;

/** Who writes, in which project (and its groups, root first), for which request. */
export interface ProjectMilestoneWriter extends EventWriter {
  ns: NamespaceContext;
}

/**
 * `render_api_error!("Failed to create milestone #{milestone.errors.messages}", 400)`: the errors as Ruby
 * prints a hash of symbols to arrays of strings.
 */
function failed(action: 'create' | 'update', errors: Record<string, string[]>): HttpError {
  const fields = Object.entries(errors).map(
    ([field, messages]) => `:${field}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`,
  );
  return new HttpError(400, { message: `Failed to ${action} milestone {${fields.join(', ')}}` });
}

/** Milestone's validations on the fields given: title length, then the dates' order. */
function validate(
  action: 'create' | 'update',
  title: string,
  startDate: string | null,
  dueDate: string | null,
) {
  const errors: Record<string, string[]> = {};
  if (title.length > TITLE_MAX) errors.title = [`is too long (maximum is ${TITLE_MAX} characters)`];
  if (startDate && dueDate && dueDate < startDate) errors.due_date = ['must be greater than start date'];
  if (Object.keys(errors).length) throw failed(action, errors);
}

/** A milestone as a write leaves it, before the store adds its sort key. */
type Written = Omit<ProjectMilestoneDoc, 'dueOrder'>;

const promotionFailed = (message: string): HttpError =>
  new HttpError(400, { message: `Promotion failed - ${message}` });

/** The project's own group (`project.group`), null in a user namespace. */
function ownGroupId(ns: NamespaceContext): number | null {
  return ns.ancestorGroupIds[ns.ancestorGroupIds.length - 1] ?? null;
}

/**
 * Project milestones (lib/api/project_milestones.rb with milestone_responses.rb; Milestones::CreateService,
 * UpdateService, DestroyService, PromoteService). Each write publishes what group milestones publish, with
 * the project where a group milestone names its group (and its definition under a subject of its own).
 */
export function createProjectMilestonesService(
  milestones: ProjectMilestonesStore,
  groupMilestones: MilestonesService,
  outbox: Outbox,
  boards?: BoardTargets,
) {
  function publishing(writer: ProjectMilestoneWriter) {
    return milestonePublishing<Written>(
      writer,
      (m) => ({ projectId: m.projectId }),
      () => outbox.kick(milestones.modelName),
    );
  }

  /** MilestonesFinder with `project_ids` and, where asked, the project's group and its ancestors. */
  function page(
    ns: NamespaceContext,
    withGroups: boolean,
    filter: ProjectMilestoneFilter,
    page: PageRequest,
  ) {
    return milestones.page(ns.id, withGroups ? ns.ancestorGroupIds : [], filter, page);
  }

  /** `user_project.milestones.find(id)`: the project's own milestones only. */
  async function get(ns: NamespaceContext, id: number): Promise<ProjectMilestoneDoc> {
    return foundMilestone(await milestones.find(ns.id, id));
  }

  /** Opens a milestone; publishes milestone.opened and milestone.defined. */
  async function create(
    writer: ProjectMilestoneWriter,
    params: z.infer<typeof createMilestoneBody>,
  ): Promise<ProjectMilestoneDoc> {
    const { ns } = writer;
    validate('create', params.title, params.start_date ?? null, params.due_date ?? null);
    if (await milestones.titleTaken(ns.id, ns.ancestorGroupIds, params.title)) {
      throw failed('create', { title: [TITLE_TAKEN] });
    }
    const placed = { ...(await milestones.allocate(ns.id)), projectId: ns.id, groupId: ownGroupId(ns) };
    return openMilestone<Written, ProjectMilestoneDoc>(
      params,
      placed,
      publishing(writer),
      milestones.insert,
      () => failed('create', { title: [TITLE_TAKEN] }),
    );
  }

  /**
   * Changes a milestone (reviseMilestone) and records the project's current group on it; a new title is
   * checked against the project's and its groups' milestones.
   */
  function update(
    writer: ProjectMilestoneWriter,
    params: z.infer<typeof updateMilestoneBody>,
  ): Promise<ProjectMilestoneDoc> {
    const { ns } = writer;
    const taken = () => failed('update', { title: [TITLE_TAKEN] });
    return reviseMilestone(params, {
      read: () => get(ns, params.milestone_id),
      parentFields: { groupId: ownGroupId(ns) },
      check: async (after, current) => {
        validate('update', after.title, after.startDate, after.dueDate);
        if (
          after.title !== current.title &&
          (await milestones.titleTaken(ns.id, ns.ancestorGroupIds, after.title))
        ) {
          throw taken();
        }
      },
      ...publishing(writer),
      write: (current, changes, events) => milestones.update(current._id, current.revision, changes, events),
      taken,
    });
  }

  /** The milestone goes, with `project_milestone.removed` (`mergedInto`: the group milestone, if merged). */
  async function removeOne(
    writer: ProjectMilestoneWriter,
    m: ProjectMilestoneDoc,
    mergedInto: number | null,
  ) {
    const data: ProjectMilestoneRemovedData = {
      milestoneId: m._id,
      projectId: m.projectId,
      iid: m.iid,
      title: excerpt(m.title, EVENT_TEXT_LIMITS.title),
      mergedInto,
    };
    const removed = createEvent(requestOrigin(SERVICE_PRODUCER, writer), {
      type: projectMilestoneRemoved,
      actor: eventActor(writer.user),
      projectId: m.projectId,
      data,
    });
    await milestones.remove(m._id, [removed]);
    // Its lists go from the project's boards (List belongs_to :milestone, dependent lists destroyed).
    await boards?.forgetTarget('milestone', m._id);
  }

  /**
   * Milestones::DestroyService. Its issues and merge requests live in discussions, which learns of the
   * deletion from `project_milestone.removed`.
   */
  async function remove(writer: ProjectMilestoneWriter, id: number): Promise<void> {
    await removeOne(writer, await get(writer.ns, id), null);
  }

  /**
   * Milestones::PromoteService: a group milestone of this title, description and dates is opened in the
   * project's group, and every milestone of that title among the group's projects goes (merged into it).
   * A group that already has the title refuses, as the new milestone's validation does there.
   */
  async function promote(writer: ProjectMilestoneWriter, id: number): Promise<MilestoneDoc> {
    const { ns } = writer;
    const groupId = ownGroupId(ns);
    if (groupId === null) throw promotionFailed('Project does not belong to a group.');
    const milestone = await get(ns, id);
    await milestones.moveToGroup(ns.id, groupId);
    const taken = (): HttpError => promotionFailed(`Title ${TITLE_TAKEN}`);
    let promoted: MilestoneDoc;
    try {
      promoted = await groupMilestones.create(
        { user: writer.user, groupId, requestId: writer.requestId },
        {
          title: milestone.title,
          description: milestone.description,
          due_date: milestone.dueDate ?? undefined,
          start_date: milestone.startDate ?? undefined,
        },
      );
    } catch (err) {
      // The group's own milestone of that title (the only validation the copied fields can fail).
      if (err instanceof ModelError) throw taken();
      throw err;
    }
    for (const merged of await milestones.inGroupProjects(groupId, milestone.title)) {
      await removeOne(writer, merged, promoted._id);
    }
    return promoted;
  }

  return { page, get, create, update, remove, promote };
}

export type ProjectMilestonesService = ReturnType<typeof createProjectMilestonesService>;
