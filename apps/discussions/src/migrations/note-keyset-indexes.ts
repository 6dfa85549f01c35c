import { replacedIndexesMigration, type Migration } from '@gl/service-kit';

/**
 * Keyset pages of notes read along {noteableType, noteableId, createdAt | updatedAt | –, _id, system,
 * internal}; the older {noteableType, noteableId, createdAt}, a prefix of the first, goes
 * (replaced-indexes.ts).
 */
export function noteKeysetIndexesMigration(version: number): Migration {
  return replacedIndexesMigration(version, {
    name: 'notes: keyset indexes by created_at, updated_at and id',
    done: 'notes: keyset indexes built',
    model: 'Note',
    collection: 'notes',
    replaced: ['noteableType_1_noteableId_1_createdAt_1'],
  });
}
