import type { Schema } from 'mongoose';
import { documentSchema } from '@gl/service-kit';

/** What GitLab stores (the `issue_links` table's enum): `is_blocked_by` is saved as the reverse `blocks`. */
export type StoredLinkType = 'relates_to' | 'blocks';

/** One link between two issues (app/models/issue_link.rb): `source` relates to or blocks `target`. */
export interface IssueLinkDoc {
  _id: number;
  sourceId: number;
  targetId: number;
  /**
   * `<lower id>:<higher id>`: one link per pair of issues whichever way it points, claimed by a unique index
   * so that concurrent requests cannot link a pair twice (IssuableLink's uniqueness and
   * check_opposite_relation validations).
   */
  pair: string;
  linkType: StoredLinkType;
  createdAt: Date;
  updatedAt: Date;
}

export function pairOf(a: number, b: number): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

export function issueLinkSchema(): Schema<IssueLinkDoc> {
  const schema = documentSchema<IssueLinkDoc>({
    _id: Number,
    sourceId: Number,
    targetId: Number,
    pair: String,
    linkType: String,
    createdAt: Date,
    updatedAt: Date,
  });
  schema.index({ pair: 1 }, { unique: true });
  // An issue's links from either side (`for_source_or_target`), in link id order.
  schema.index({ sourceId: 1, _id: 1 });
  schema.index({ targetId: 1, _id: 1 });
  return schema;
}
