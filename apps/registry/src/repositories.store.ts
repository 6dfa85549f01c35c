import type { Model } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import {
  createCounters,
  findPage,
  isDuplicateKeyError,
  pushEvents,
  type Counters,
  type PageRequest,
} from '@gl/service-kit';
import type { RepositoryDoc, RepositoryStatus } from './models';

export type NewRepository = Pick<RepositoryDoc, 'projectId' | 'name' | 'path'>;

/** Container repositories: lookups, and writes that carry the worker's commands (outbox). */
export class RepositoriesStore {
  private readonly counters: Counters;

  constructor(private readonly repositories: Model<RepositoryDoc>) {
    this.counters = createCounters(repositories.db);
  }

  async findById(id: number): Promise<RepositoryDoc | null> {
    return this.repositories.findOne({ _id: id }).lean<RepositoryDoc>();
  }

  async findInProject(projectId: number, id: number): Promise<RepositoryDoc | null> {
    return this.repositories.findOne({ _id: id, projectId }).lean<RepositoryDoc>();
  }

  async findByName(projectId: number, name: string): Promise<RepositoryDoc | null> {
    return this.repositories.findOne({ projectId, name }).lean<RepositoryDoc>();
  }

  /** One project's repositories, by id. */
  async pageOfProject(
    projectId: number,
    page: PageRequest,
  ): Promise<{ total: number; docs: RepositoryDoc[] }> {
    return findPage(this.repositories, { projectId }, { _id: 1 }, page);
  }

  /** The repositories of these projects, by id. */
  async pageOfProjects(
    projectIds: number[],
    page: PageRequest,
  ): Promise<{ total: number; docs: RepositoryDoc[] }> {
    return findPage(this.repositories, { projectId: { $in: projectIds } }, { _id: 1 }, page);
  }

  /** The project's repository of that name, created on first use (by any number of callers at once). */
  async ensure(repository: NewRepository): Promise<RepositoryDoc> {
    const existing = await this.findByName(repository.projectId, repository.name);
    if (existing) return existing;
    const doc: RepositoryDoc = {
      _id: await this.counters.next('registry_repositories'),
      ...repository,
      createdAt: new Date(),
      status: null,
      cleanupPolicyStartedAt: null,
      cleanupLeaseUntil: null,
    };
    try {
      await this.repositories.create(doc);
      return doc;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const raced = await this.findByName(repository.projectId, repository.name);
      if (!raced) throw err;
      return raced;
    }
  }

  /** Marks the repository for deletion and stores the worker's delete command with it. */
  async scheduleDelete(id: number, commands: EventEnvelope[]): Promise<void> {
    await this.repositories.updateOne(
      { _id: id },
      pushEvents({ $set: { status: 'delete_scheduled' } }, commands),
    );
  }

  /**
   * Takes the repository's hourly bulk-delete slot if it is free at `now` (rate-limited until `nextSlotAt`),
   * storing the worker's cleanup command with it; false while the repository is still rate-limited.
   */
  async takeBulkDeleteSlot(
    id: number,
    now: Date,
    nextSlotAt: Date,
    commands: EventEnvelope[],
  ): Promise<boolean> {
    const taken = await this.repositories.updateOne(
      { _id: id, $or: [{ cleanupLeaseUntil: null }, { cleanupLeaseUntil: { $lte: now } }] },
      pushEvents({ $set: { cleanupLeaseUntil: nextSlotAt } }, commands),
    );
    return taken.modifiedCount === 1;
  }

  async setStatus(id: number, status: RepositoryStatus): Promise<void> {
    await this.repositories.updateOne({ _id: id }, { $set: { status } });
  }

  async remove(id: number): Promise<void> {
    await this.repositories.deleteOne({ _id: id });
  }
}
