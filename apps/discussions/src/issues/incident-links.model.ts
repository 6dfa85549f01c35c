import type { Schema } from 'mongoose';
import { documentSchema } from '@gl/service-kit';

/** Alert → incident issue, keyed by alert id: the reservation that makes incident creation idempotent. */
export interface IncidentLinkDoc {
  _id: string;
  projectId: number;
  issueId: number;
  issueIid: number;
}

export function incidentLinkSchema(): Schema<IncidentLinkDoc> {
  const schema = documentSchema<IncidentLinkDoc>({
    _id: String,
    projectId: Number,
    issueId: Number,
    issueIid: Number,
  });
  return schema;
}
