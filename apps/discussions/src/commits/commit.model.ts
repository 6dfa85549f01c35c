import type { Schema } from 'mongoose';
import { addOutboxFields, documentSchema } from '@gl/service-kit';

export interface CommitDoc {
  _id: string;
  projectId: number;
  branch: string;
  title: string;
  message: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  createdAt: Date;
}

export interface BranchDoc {
  _id: string;
  projectId: number;
  name: string;
  headSha: string;
  updatedAt: Date;
}

export function commitSchema(): Schema<CommitDoc> {
  const schema = documentSchema<CommitDoc>({
    _id: String,
    projectId: Number,
    branch: String,
    title: String,
    message: String,
    parentIds: [String],
    authorName: String,
    authorEmail: String,
    createdAt: Date,
  });
  schema.index({ projectId: 1 });
  return schema;
}

export function branchSchema(): Schema<BranchDoc> {
  const schema = documentSchema<BranchDoc>({
    _id: String,
    projectId: Number,
    name: String,
    headSha: String,
    updatedAt: Date,
  });
  addOutboxFields(schema);
  return schema;
}
