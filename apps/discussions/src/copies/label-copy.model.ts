import type { Schema } from 'mongoose';
import { documentSchema } from '@gl/service-kit';

/**
 * What discussions knows about a group or project label, from `gl.boards.label.defined`: what GitLab's
 * LabelBasic shows of it (issue lists' `with_labels_details`, resource label events). Issues hold label
 * titles; the copy says which label a title is in a scope. A deleted label stays as a tombstone
 * (`deleted`), so an older definition delivered late does not bring it back.
 */
export interface LabelCopyDoc {
  _id: number;
  /** A group label's group, else null. */
  groupId: number | null;
  /** A project label's project, else null. */
  projectId: number | null;
  title: string;
  color: string;
  textColor: string;
  description: string | null;
  /** The `label.defined` revision this copy is at: an older one never overwrites it. */
  revision: number;
  deleted: boolean;
}

export function labelCopySchema(): Schema<LabelCopyDoc> {
  const schema = documentSchema<LabelCopyDoc>({
    _id: Number,
    groupId: Number,
    projectId: Number,
    title: String,
    color: String,
    textColor: String,
    description: String,
    revision: Number,
    deleted: Boolean,
  });
  // The labels a title names in an issue's scope: its project's, then its groups'.
  schema.index({ projectId: 1, title: 1 });
  schema.index({ groupId: 1, title: 1 });
  return schema;
}
