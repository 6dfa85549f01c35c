import { dropIndexesIfPresent, reportingMigration, type Migration } from '@gl/service-kit';

/** The index of a noteable's notes by creation before the keyset indexes (notes/note.model.ts). */
const REPLACED = ['noteableType_1_noteableId_1_createdAt_1'];

/**
 * Keyset pages of notes read along {noteableType, noteableId, createdAt | updatedAt | –, _id, system,
 * internal}. Mongoose builds them when the model compiles; the older {noteableType, noteableId, createdAt},
 * a prefix of the first, would only cost every write and could still be chosen for a page, which then
 * sorts the noteable's notes. Waits for the build, then drops it (idempotent: it checks first).
 */
export function noteKeysetIndexesMigration(version: number): Migration {
  return reportingMigration(
    version,
    'notes: keyset indexes by created_at, updated_at and id',
    'notes: keyset indexes built',
    async (connection) => {
      await connection.models.Note?.init();
      return { dropped: await dropIndexesIfPresent(connection.collection('notes'), REPLACED) };
    },
  );
}
