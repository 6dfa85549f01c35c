import type { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type EventEnvelope,
  type NamespaceContext,
  type Principal,
  type ProjectMilestoneDefinedData,
  type ProjectMilestoneRemovedData,
  type TargetEventData,
  type createMilestoneBody,
  type updateMilestoneBody,
} from '@gl/contracts';
import {
  ConflictError,
  HttpError,
  ModelError,
  NotFoundError,
  createEvent,
  eventActor,
  excerpt,
  requestOrigin,
  type Outbox,
  type PageRequest,
} from '@gl/service-kit';
import type { MilestoneDoc } from '../boards.models';
import { SERVICE_PRODUCER, type MilestonesService } from '../milestones.service';
import type { BoardTargets } from '../labels/project-labels.service';
import type { ProjectMilestoneDoc } from './project-milestones.model';
import type {
  AvailableMilestone,
  ProjectMilestoneChanges,
  ProjectMilestoneFilter,
  ProjectMilestonesStore,
} from './project-milestones.store';
import { milestoneEdit } from '../milestone-edits';

export type { AvailableMilestone, ProjectMilestoneDoc };

const { milestoneOpened, projectMilestoneDefined, projectMilestoneRemoved } = DOMAIN_EVENT_TYPES.boards;
/** Tries of an update that another write to the same milestone overtook (each reads it again). */
const UPDATE_TRIES = 5;
const TITLE_TAKEN = 'already being used for another group or project milestone.';
const TITLE_MAX = 255;

/** Who writes, in which project (and its groups, root first), for which request. */
export interface ProjectMilestoneWriter {
  user: Principal;
  ns: NamespaceContext;
  requestId: string;
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
  function event(writer: ProjectMilestoneWriter, type: string, m: Written): EventEnvelope {
    const data: TargetEventData = {
      targetId: m._id,
      targetIid: m.iid,
      targetTitle: excerpt(m.title, EVENT_TEXT_LIMITS.title),
    };
    return createEvent(requestOrigin(SERVICE_PRODUCER, writer), {
      type,
      actor: eventActor(writer.user),
      projectId: m.projectId,
      data,
    });
  }

  /** `gl.boards.project_milestone.defined`, at the revision this write gives the milestone. */
  function defined(writer: ProjectMilestoneWriter, m: Written): EventEnvelope {
    const data: ProjectMilestoneDefinedData = {
      milestoneId: m._id,
      projectId: m.projectId,
      iid: m.iid,
      revision: m.revision,
      title: excerpt(m.title, EVENT_TEXT_LIMITS.title),
      state: m.state,
      startDate: m.startDate,
      dueDate: m.dueDate,
    };
    return createEvent(requestOrigin(SERVICE_PRODUCER, writer), {
      type: projectMilestoneDefined,
      actor: eventActor(writer.user),
      projectId: m.projectId,
      data,
    });
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
    const milestone = await milestones.find(ns.id, id);
    if (!milestone) throw new NotFoundError('Milestone');
    return milestone;
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
    const now = new Date();
    const doc = {
      ...(await milestones.allocate(ns.id)),
      projectId: ns.id,
      groupId: ownGroupId(ns),
      title: params.title,
      description: params.description ?? '',
      state: 'active' as const,
      dueDate: params.due_date ?? null,
      startDate: params.start_date ?? null,
      createdAt: now,
      updatedAt: now,
      revision: 1,
    };
    const events = [event(writer, milestoneOpened, doc), defined(writer, doc)];
    const created = await milestones.insert(doc, events);
    if (!created) throw failed('create', { title: [TITLE_TAKEN] });
    outbox.kick(milestones.modelName);
    return created;
  }

  /**
   * Changes a milestone; closing or reopening it publishes milestone.closed / milestone.reopened, and every
   * change milestone.defined. Applied at the revision it read: a write that another overtook reads again.
   */
  async function update(
    writer: ProjectMilestoneWriter,
    params: z.infer<typeof updateMilestoneBody>,
  ): Promise<ProjectMilestoneDoc> {
    const { ns } = writer;
    for (let tries = 0; tries < UPDATE_TRIES; tries += 1) {
      const current = await get(ns, params.milestone_id);
      const { fields, stateEvent } = milestoneEdit(current, params);
      const changes: ProjectMilestoneChanges = {
        updatedAt: new Date(),
        revision: current.revision + 1,
        groupId: ownGroupId(ns),
        ...fields,
      };
      const after: ProjectMilestoneDoc = { ...current, ...changes };
      validate('update', after.title, after.startDate, after.dueDate);
      if (
        after.title !== current.title &&
        (await milestones.titleTaken(ns.id, ns.ancestorGroupIds, after.title))
      ) {
        throw failed('update', { title: [TITLE_TAKEN] });
      }
      const events = stateEvent ? [event(writer, stateEvent, after)] : [];
      events.push(defined(writer, after));
      const updated = await milestones.update(current._id, current.revision, changes, events);
      if (updated === 'taken') throw failed('update', { title: [TITLE_TAKEN] });
      if (!updated) continue;
      outbox.kick(milestones.modelName);
      return updated;
    }
    // The milestone is there (get found it) but every try was overtaken by another write.
    throw new ConflictError('Milestone was changed by another request, try again');
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
