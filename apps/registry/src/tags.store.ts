import type { Model } from 'mongoose';
import { deleteManyInBatches } from '@gl/service-kit';
import type { RepositoryDoc, TagDoc } from './models';
import { createTagNameCache, type TagNameCache } from './tag-names.cache';

/** `<repositoryId>:<name>`: a string `_id`, which FerretDB finds and deletes through its index. */
const tagId = (repositoryId: number, name: string): string => `${repositoryId}:${name}`;

export type TagDigest = Pick<TagDoc, 'name' | 'digest'>;
export type TagDetails = Pick<TagDoc, 'digest' | 'revision' | 'createdAt' | 'totalSize'>;

/** The repository's tags as a job loaded them, and when: tags written later are never deleted in bulk. */
export interface TagSnapshot {
  tags: TagDigest[];
  takenAt: Date;
  /** The repository's `tagsVersion` read before the tags: a later tag write changes it. */
  tagsVersion: number;
}

/** Above this many deletions, tags go by id in unordered bulk writes checked against the snapshot. */
export const LARGE_DELETE = 1000;
const BATCH = 1000;

/**
 * A repository's tags. Every write bumps the repository's `tagsVersion`, which the sorted-name cache and
 * large deletes compare against.
 */
export class TagsStore {
  private readonly sortedNames: TagNameCache;

  constructor(
    private readonly tags: Model<TagDoc>,
    private readonly repositories: Model<RepositoryDoc>,
  ) {
    this.sortedNames = createTagNameCache(async (repositoryId) =>
      (await this.tags.find({ repositoryId }, { name: 1, _id: 0 }).lean<{ name: string }[]>()).map(
        (d) => d.name,
      ),
    );
  }

  /** The repository's tag names in ascending order (cached until its tags change). */
  async names(repository: Pick<RepositoryDoc, '_id' | 'tagsVersion'>): Promise<string[]> {
    return this.sortedNames.names(repository);
  }

  async count(repositoryId: number): Promise<number> {
    return this.tags.countDocuments({ repositoryId });
  }

  async find(repositoryId: number, name: string): Promise<TagDoc | null> {
    return this.tags.findOne({ _id: tagId(repositoryId, name) }).lean<TagDoc>();
  }

  /** Records a pushed tag (again: a re-push replaces its details and write time). */
  async record(repositoryId: number, name: string, pushedAt: Date, details: TagDetails): Promise<void> {
    await this.tags.updateOne(
      { _id: tagId(repositoryId, name) },
      { $set: { repositoryId, name, pushedAt, writtenAt: new Date(), ...details } },
      { upsert: true },
    );
    await this.touch(repositoryId);
  }

  /** Forgets the tag named `tag`, else every tag of manifest `digest` (the registry deleted them). */
  async forget(repositoryId: number, reference: { tag?: string; digest?: string }): Promise<void> {
    if (reference.tag) await this.tags.deleteOne({ _id: tagId(repositoryId, reference.tag) });
    else if (reference.digest) await this.tags.deleteMany({ repositoryId, digest: reference.digest });
    await this.touch(repositoryId);
  }

  /** Name and digest of those of `names` that exist. */
  async digestsOf(repositoryId: number, names: string[]): Promise<TagDigest[]> {
    return this.tags
      .find({ _id: { $in: names.map((n) => tagId(repositoryId, n)) } }, { name: 1, digest: 1 })
      .lean<TagDigest[]>();
  }

  /** The repository's tags of any of these manifests. */
  async withDigests(repositoryId: number, digests: string[]): Promise<TagDigest[]> {
    return this.tags
      .find({ repositoryId, digest: { $in: digests } }, { name: 1, digest: 1 })
      .lean<TagDigest[]>();
  }

  /** Every tag of the repository as of `takenAt` (the repository as read before, for its `tagsVersion`). */
  async snapshot(
    repository: Pick<RepositoryDoc, '_id' | 'tagsVersion'>,
    takenAt: Date,
  ): Promise<TagSnapshot & { tags: Pick<TagDoc, 'name' | 'digest' | 'createdAt'>[] }> {
    const tags = await this.tags
      .find({ repositoryId: repository._id }, { name: 1, createdAt: 1, digest: 1 })
      .lean<{ name: string; createdAt: Date | null; digest: string | null }[]>();
    return {
      tags: tags.map((t) => ({ name: t.name, digest: t.digest ?? null, createdAt: t.createdAt ?? null })),
      takenAt,
      tagsVersion: repository.tagsVersion ?? 0,
    };
  }

  /**
   * Deletes these tags and marks the repository's tags changed. Large deletions from a job's snapshot go
   * by id (deleteSnapshotTags); others by id in batches.
   */
  async remove(repositoryId: number, names: string[], snapshot?: TagSnapshot): Promise<void> {
    if (snapshot && names.length > LARGE_DELETE) {
      await this.deleteSnapshotTags(repositoryId, names, snapshot);
    } else {
      for (let i = 0; i < names.length; i += BATCH) {
        const batch = names.slice(i, i + BATCH).map((n) => tagId(repositoryId, n));
        await this.tags.deleteMany({ _id: { $in: batch } });
      }
    }
    await this.touch(repositoryId);
  }

  /** Every tag of the repository, whenever written (the repository itself goes next). */
  async removeAll(repositoryId: number): Promise<void> {
    await deleteManyInBatches(this.tags, { repositoryId });
  }

  /** Marks the repository's tag list as changed (see TagNameCache). */
  async touch(repositoryId: number): Promise<void> {
    await this.repositories.updateOne({ _id: repositoryId }, { $inc: { tagsVersion: 1 } });
  }

  /**
   * Deletes the snapshot's tags by `_id` (FerretDB finds and deletes by a string `_id` through its index;
   * any other condition scans the collection, which made 100,000-tag deletes quadratic). Between batches
   * the repository's `tagsVersion` shows whether a tag was written since the snapshot; if so, the rest go
   * through the guarded delete that spares tags written after it.
   */
  private async deleteSnapshotTags(
    repositoryId: number,
    names: string[],
    snapshot: TagSnapshot,
  ): Promise<void> {
    for (let i = 0; i < names.length; i += BATCH) {
      const ids = names.slice(i, i + BATCH).map((n) => tagId(repositoryId, n));
      const current = await this.repositories
        .findOne({ _id: repositoryId })
        .select({ tagsVersion: 1 })
        .lean<Pick<RepositoryDoc, 'tagsVersion'>>();
      if ((current?.tagsVersion ?? 0) !== snapshot.tagsVersion) {
        const rest = names.slice(i).map((n) => tagId(repositoryId, n));
        await deleteManyInBatches(this.tags, {
          _id: { $in: rest },
          writtenAt: { $not: { $gte: snapshot.takenAt } },
        });
        return;
      }
      await this.tags.bulkWrite(
        ids.map((id) => ({ deleteOne: { filter: { _id: id } } })),
        { ordered: false },
      );
    }
  }
}
