import type { Schema } from 'mongoose';
import { documentSchema } from '@gl/service-kit';

/**
 * A claim on one position of a positioning scope, keyed `<scope>:<position>`: whoever inserts it first
 * owns the position, so two issues never share one whatever the races (relative-position.ts). `at`: when it
 * was claimed (a claim whose owner never took the position is stale after a while).
 */
export interface PositionClaimDoc {
  _id: string;
  scope: string;
  position: number;
  issueId: number;
  at: Date;
}

/** One writer at a time moves the issues of a positioning scope: a lease by scope, with an expiry. */
export interface PositionLeaseDoc {
  _id: string;
  holder: string;
  until: Date;
}

export function positionClaimSchema(): Schema<PositionClaimDoc> {
  const schema = documentSchema<PositionClaimDoc>({
    _id: String,
    scope: String,
    position: Number,
    issueId: Number,
    at: Date,
  });
  schema.index({ scope: 1, position: 1 });
  return schema;
}

export function positionLeaseSchema(): Schema<PositionLeaseDoc> {
  return documentSchema<PositionLeaseDoc>({ _id: String, holder: String, until: Date });
}
