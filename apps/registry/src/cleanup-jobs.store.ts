import type { Model } from 'mongoose';
import { isDuplicateKeyError } from '@gl/service-kit';
import type { CleanupJobDoc } from './models';

export type ClaimOutcome = { claimed: true } | { claimed: false; done: boolean; owner: string | null };

/** Cleanup job records, keyed by the command's event id: who runs a job, until when, and whether it is done. */
export function createCleanupJobsStore(jobs: Model<CleanupJobDoc>) {
  /**
   * Makes `owner` the owner of the job until `ownedUntil`: a new job, or one whose owner's ownership ran out
   * by `now`. Otherwise says whether it is done or who owns it.
   */
  async function claim(
    jobId: string,
    owner: string,
    ownedUntil: Date,
    now: () => Date,
  ): Promise<ClaimOutcome> {
    try {
      await jobs.create({ _id: jobId, state: 'running', owner, leaseUntil: ownedUntil });
      return { claimed: true };
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const taken = await jobs.updateOne(
      { _id: jobId, state: 'running', leaseUntil: { $lte: now() } },
      { $set: { owner, leaseUntil: ownedUntil } },
    );
    if (taken.modifiedCount === 1) return { claimed: true };
    const job = await jobs.findById(jobId).lean<CleanupJobDoc>();
    return { claimed: false, done: job?.state === 'done', owner: job?.owner ?? null };
  }

  /** Extends the owner's ownership of a running job. */
  async function renew(jobId: string, owner: string, ownedUntil: Date): Promise<void> {
    await jobs.updateOne({ _id: jobId, owner, state: 'running' }, { $set: { leaseUntil: ownedUntil } });
  }

  async function finish(jobId: string, counts: Record<string, number>): Promise<void> {
    await jobs.updateOne({ _id: jobId }, { $set: { state: 'done', counts, finishedAt: new Date() } });
  }

  return { claim, renew, finish };
}
