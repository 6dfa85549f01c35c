import type { Schema } from 'mongoose';
import { addOutboxFields, documentSchema } from '@gl/service-kit';

/**
 * A file a commit changed, as its `actions` said (lib/api/commits.rb): the content as text, or none for a
 * deletion and for content that is not UTF-8 text (`binary`). Merge request diffs are made from these.
 */
export interface CommitFile {
  action: 'create' | 'delete' | 'move' | 'update' | 'chmod';
  path: string;
  previousPath: string | null;
  content: string | null;
  binary: boolean;
}

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
  /** Absent on commits recorded before files were kept (they change nothing in a diff). */
  files?: CommitFile[];
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
    files: [
      {
        _id: false,
        action: String,
        path: String,
        previousPath: String,
        content: String,
        binary: Boolean,
      },
    ],
  });
  schema.index({ projectId: 1 });
  // A branch's commits newest first: the commits list of a branch and a merge request's commits.
  schema.index({ projectId: 1, branch: 1, createdAt: -1, _id: 1 });
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
