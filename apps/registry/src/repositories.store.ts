import type { Model } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import { createCounters, findPage, isDuplicateKeyError, pushEvents, type PageRequest } from '@gl/service-kit';
import type { RepositoryDoc, RepositoryStatus } from './models';

export type NewRepository = Pick<RepositoryDoc, 'projectId' | 'name' | 'path'>;

/** Container repositories: lookups, and writes that carry the worker's commands (outbox). */
export function createRepositoriesStore(repositories: Model<RepositoryDoc>) {
  const counters = createCounters(repositories.db);

  async function findById(id: number): Promise<RepositoryDoc | null> {
    return repositories.findOne({ _id: id }).lean<RepositoryDoc>();
  }

  async function findInProject(projectId: number, id: number): Promise<RepositoryDoc | null> {
    return repositories.findOne({ _id: id, projectId }).lean<RepositoryDoc>();
  }

  async function findByName(projectId: number, name: string): Promise<RepositoryDoc | null> {
    return repositories.findOne({ projectId, name }).lean<RepositoryDoc>();
  }

  /** One project's repositories, by id. */
  async function pageOfProject(
    projectId: number,
    page: PageRequest,
  ): Promise<{ total: number; docs: RepositoryDoc[] }> {
    return findPage(repositories, { projectId }, { _id: 1 }, page);
  }

  /** The repositories of these projects, by id. */
  async function pageOfProjects(
    projectIds: number[],
    page: PageRequest,
  ): Promise<{ total: number; docs: RepositoryDoc[] }> {
    return findPage(repositories, { projectId: { $in: projectIds } }, { _id: 1 }, page);
  }

  /** The project's repository of that name, created on first use (by any number of callers at once). */
  async function ensure(repository: NewRepository): Promise<RepositoryDoc> {
    const existing = await findByName(repository.projectId, repository.name);
    if (existing) return existing;
    const doc: RepositoryDoc = {
      _id: await counters.next('registry_repositories'),
      ...repository,
      createdAt: new Date(),
      status: null,
      cleanupPolicyStartedAt: null,
      cleanupLeaseUntil: null,
    };
    try {
      await repositories.create(doc);
      return doc;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const raced = await findByName(repository.projectId, repository.name);
      if (!raced) throw err;
      return raced;
    }
  }

  /** Marks the repository for deletion and stores the worker's delete command with it. */
  async function scheduleDelete(id: number, commands: EventEnvelope[]): Promise<void> {
    await repositories.updateOne({ _id: id }, pushEvents({ $set: { status: 'delete_scheduled' } }, commands));
  }

  /**
   * Takes the repository's hourly bulk-delete slot if it is free at `now` (rate-limited until `nextSlotAt`),
   * storing the worker's cleanup command with it; false while the repository is still rate-limited.
   */
  async function takeBulkDeleteSlot(
    id: number,
    now: Date,
    nextSlotAt: Date,
    commands: EventEnvelope[],
  ): Promise<boolean> {
    const taken = await repositories.updateOne(
      { _id: id, $or: [{ cleanupLeaseUntil: null }, { cleanupLeaseUntil: { $lte: now } }] },
      pushEvents({ $set: { cleanupLeaseUntil: nextSlotAt } }, commands),
    );
    return taken.modifiedCount === 1;
  }

  async function setStatus(id: number, status: RepositoryStatus): Promise<void> {
    await repositories.updateOne({ _id: id }, { $set: { status } });
  }

  async function remove(id: number): Promise<void> {
    await repositories.deleteOne({ _id: id });
  }

  return {
    /** The model whose documents carry the repositories' events (the outbox relay's targeted pass). */
    modelName: repositories.modelName,
    findById,
    findInProject,
    findByName,
    pageOfProject,
    pageOfProjects,
    ensure,
    scheduleDelete,
    takeBulkDeleteSlot,
    setStatus,
    remove,
  };
}
