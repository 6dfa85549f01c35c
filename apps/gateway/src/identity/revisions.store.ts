import type { IdentityModels } from './identity.models';

const VISIBILITY = 'visibility';

/** The newest identity revision of any visibility change or removal (identity/revisions.ts). */
export function createRevisionsStore(models: Pick<IdentityModels, 'revisions' | 'cache'>) {
  const { revisions, cache } = models;

  async function raiseVisibility(revision: number): Promise<void> {
    await revisions.updateOne({ _id: VISIBILITY }, { $max: { value: revision } }, { upsert: true });
  }

  /** Through the identity cache: read again after any identity write here. */
  async function visibility(): Promise<number> {
    const record = await cache.get(`revision:${VISIBILITY}`, () => revisions.findById(VISIBILITY).lean());
    return record?.value ?? 0;
  }

  return { raiseVisibility, visibility };
}
