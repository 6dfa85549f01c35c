import type { FilterQuery } from 'mongoose';
import type { ActivityDoc } from './events.models';

/**
 * The scopes activity is listed and streamed by (EventsFinder's sources): one author's events, one
 * project's, every project's. Named by string keys, which the recorder's wake-up notices carry to the
 * live streams of every replica.
 */
export const streams = {
  project: (projectId: number): string => `project:${projectId}`,
  author: (authorId: number): string => `author:${authorId}`,
  allProjects: 'all-projects',
};

/** The scopes an activity event belongs to: its author's, and (project events) its project's and all. */
export function streamsOf(activity: Pick<ActivityDoc, 'authorId' | 'projectId'>): string[] {
  const keys = [streams.author(activity.authorId)];
  if (activity.projectId !== null) keys.push(streams.project(activity.projectId), streams.allProjects);
  return keys;
}

/**
 * The log's events of a scope. Every project event has a positive project id, so "all projects" is a range
 * the database answers from its indexes (`$ne: null` it would test on each document).
 */
export function scopeFilter(stream: string): FilterQuery<ActivityDoc> {
  if (stream === streams.allProjects) return { projectId: { $gt: 0 } };
  const [kind, id] = stream.split(':');
  const n = Number(id);
  if (!Number.isSafeInteger(n)) throw new Error(`unknown activity scope ${stream}`);
  if (kind === 'project') return { projectId: n };
  if (kind === 'author') return { authorId: n };
  throw new Error(`unknown activity scope ${stream}`);
}
