import type { CommitEntity, CommitBasicEntity } from '@gl/contracts';
import type { CommitDoc } from './commit.model';
import { isoNow, type NamespaceView } from '../common/presenting';

export function presentCommit(doc: CommitDoc, ns: NamespaceView): CommitEntity {
  const date = isoNow(doc.createdAt);
  return {
    id: doc._id,
    short_id: doc._id.slice(0, 8),
    created_at: date,
    parent_ids: doc.parentIds,
    title: doc.title,
    message: doc.message,
    author_name: doc.authorName,
    author_email: doc.authorEmail,
    authored_date: date,
    committer_name: doc.authorName,
    committer_email: doc.authorEmail,
    committed_date: date,
    trailers: {},
    extended_trailers: {},
    web_url: `${ns.webUrl}/-/commit/${doc._id}`,
    stats: { additions: 0, deletions: 0, total: 0 },
    status: null,
    project_id: doc.projectId,
    last_pipeline: null,
  };
}

/** lib/api/entities/commit.rb (merge request commits): without CommitDetail's stats, status and pipeline. */
export function presentCommitBasic(doc: CommitDoc, ns: NamespaceView): CommitBasicEntity {
  const {
    stats: _stats,
    status: _status,
    project_id: _project,
    last_pipeline: _pipeline,
    ...basic
  } = presentCommit(doc, ns);
  return basic;
}
