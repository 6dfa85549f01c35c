import type { Model } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import { insertUnique, pushEvents, withEvents, type Outbox } from '@gl/service-kit';

/**
 * The writes of a collection whose documents publish their identity events with them (the outbox
 * fields): each insert, edit and removal carries its events in the same single-document write.
 */
export function publishingWrites<T extends { _id: number }>(model: Model<T>, outbox: Outbox) {
  /** False when a unique index refuses the document. */
  function insert(doc: Partial<T>, events: EventEnvelope[] = []): Promise<boolean> {
    return insertUnique(model, withEvents(doc, events));
  }

  /** Sets only the given fields. */
  async function update(id: number, changes: Partial<T>, events: EventEnvelope[]): Promise<void> {
    await model.updateOne({ _id: id }, pushEvents({ $set: changes }, events));
  }

  /** False when it was already gone. */
  function remove(id: number, events: EventEnvelope[]): Promise<boolean> {
    return outbox.deleteWithEvents(model, id, events);
  }

  return { insert, update, remove };
}
