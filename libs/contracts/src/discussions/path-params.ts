import { z } from 'zod';
import { recordIdParam } from '../primitives';

/**
 * The path ids of discussions' routes as GitLab's lib/api declares them. `type: Integer` ids read through
 * recordIdParam: every integer is looked up (0, -1 and a 20-digit id answer the resource's 404), anything
 * else is "<name> is invalid". An endpoint's params put its path ids first, as GitLab's `params` blocks do,
 * so they come first among the messages of a request with several broken parameters.
 */
export const issuePath = z.object({ issue_iid: recordIdParam });
export const mergeRequestPath = z.object({ merge_request_iid: recordIdParam });
export const projectSnippetPath = z.object({ snippet_id: recordIdParam });
/** lib/api/snippets.rb `requires :id, type: Integer`. */
export const personalSnippetPath = z.object({ id: recordIdParam });
export const epicPath = z.object({ epic_iid: recordIdParam });
export const milestonePath = z.object({ milestone_id: recordIdParam });
/** lib/api/commits.rb `requires :sha, type: String`: a SHA, an abbreviated one or a branch name. */
export const commitPath = z.object({ sha: z.string() });

/**
 * lib/api/subscriptions.rb `requires :subscribable_id, type: String`: the iid is only looked up as the
 * service finds it (find_by! → 404), never refused as invalid.
 */
export const subscribableIssuePath = z.object({ issue_iid: z.string() });
export const subscribableMergeRequestPath = z.object({ merge_request_iid: z.string() });
