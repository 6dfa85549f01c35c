import { z } from 'zod';
import { defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { paginationQuery } from '../pagination';
import { isoTimestamp, recordIdParam } from '../primitives';
import { userSummary } from '../shared';

/** lib/api/entities/award_emoji.rb: `user` is a UserBasic, `url` only for custom emoji (none here). */
export const awardEmojiEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  user: userSummary,
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  awardable_id: z.number().int(),
  awardable_type: z.enum(['Issue', 'MergeRequest', 'Snippet', 'Epic', 'Note']),
  url: z.null(),
});
export type AwardEmojiEntity = z.infer<typeof awardEmojiEntity>;

/** The operation ids of one awardable's award emoji routes. */
export interface AwardOperationIds {
  list: string;
  get: string;
  create: string;
  remove: string;
}

/**
 * lib/api/award_emoji.rb (lib/api/helpers/award_emoji.rb `awardables`): the issues, merge requests and
 * snippets of a project, and (ee/lib/ee/api/helpers/award_emoji.rb, a higher tier) the epics of a group,
 * found by iid.
 */
export const AWARD_OPERATIONS = {
  Issue: {
    list: 'listIssueAwardEmoji',
    get: 'getIssueAwardEmoji',
    create: 'createIssueAwardEmoji',
    remove: 'deleteIssueAwardEmoji',
  },
  MergeRequest: {
    list: 'listMergeRequestAwardEmoji',
    get: 'getMergeRequestAwardEmoji',
    create: 'createMergeRequestAwardEmoji',
    remove: 'deleteMergeRequestAwardEmoji',
  },
  Snippet: {
    list: 'listSnippetAwardEmoji',
    get: 'getSnippetAwardEmoji',
    create: 'createSnippetAwardEmoji',
    remove: 'deleteSnippetAwardEmoji',
  },
  Epic: {
    list: 'listEpicAwardEmoji',
    get: 'getEpicAwardEmoji',
    create: 'createEpicAwardEmoji',
    remove: 'deleteEpicAwardEmoji',
  },
} as const satisfies Record<string, AwardOperationIds>;

/** The same routes on a note of each awardable: `.../notes/:note_id/award_emoji`. */
export const NOTE_AWARD_OPERATIONS = {
  Issue: {
    list: 'listIssueNoteAwardEmoji',
    get: 'getIssueNoteAwardEmoji',
    create: 'createIssueNoteAwardEmoji',
    remove: 'deleteIssueNoteAwardEmoji',
  },
  MergeRequest: {
    list: 'listMergeRequestNoteAwardEmoji',
    get: 'getMergeRequestNoteAwardEmoji',
    create: 'createMergeRequestNoteAwardEmoji',
    remove: 'deleteMergeRequestNoteAwardEmoji',
  },
  Snippet: {
    list: 'listSnippetNoteAwardEmoji',
    get: 'getSnippetNoteAwardEmoji',
    create: 'createSnippetNoteAwardEmoji',
    remove: 'deleteSnippetNoteAwardEmoji',
  },
  Epic: {
    list: 'listEpicNoteAwardEmoji',
    get: 'getEpicNoteAwardEmoji',
    create: 'createEpicNoteAwardEmoji',
    remove: 'deleteEpicNoteAwardEmoji',
  },
} as const satisfies Record<keyof typeof AWARD_OPERATIONS, AwardOperationIds>;

/** `requires :name, type: String`: Grape coerces scalars to String. */
const nameParam = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

/**
 * One awardable's four routes at `base` (an issue, merge request or snippet, or a note of one). Reads take
 * an optional token (public awardables are readable anonymously); writes need one.
 */
function awardEndpoints<P extends z.ZodRawShape, const O extends AwardOperationIds>(
  base: string,
  path: z.ZodObject<P>,
  ids: O,
  what: string,
  higherTier = false,
) {
  const one = path.extend({ award_id: recordIdParam });
  const tags = ['award_emoji'];
  // A property of a generic object reads as its constraint (string): read the literal operation ids.
  const id = <K extends keyof O>(key: K): O[K] => ids[key];
  return [
    {
      method: 'GET',
      path: `${base}/award_emoji`,
      operationId: id('list'),
      summary: `List all emoji reactions for ${what}`,
      tags,
      auth: 'optional-token',
      params: path.extend(paginationQuery.shape),
      response: {
        status: 200,
        description: 'Award emoji',
        schema: z.array(awardEmojiEntity),
        paginated: true,
      },
      errors: [404],
      ...(higherTier && { higherTier: true as const }),
    },
    {
      method: 'GET',
      path: `${base}/award_emoji/{award_id}`,
      operationId: id('get'),
      summary: `Retrieve an emoji reaction from ${what}`,
      tags,
      auth: 'optional-token',
      params: one,
      response: { status: 200, description: 'Award emoji', schema: awardEmojiEntity },
      errors: [404],
      ...(higherTier && { higherTier: true as const }),
    },
    {
      method: 'POST',
      path: `${base}/award_emoji`,
      operationId: id('create'),
      summary: `Add an emoji reaction to ${what}`,
      tags,
      auth: 'token',
      params: path.extend({ name: nameParam }),
      response: { status: 201, description: 'Award emoji', schema: awardEmojiEntity },
      errors: [400, 401, 404],
      ...(higherTier && { higherTier: true as const }),
    },
    {
      method: 'DELETE',
      path: `${base}/award_emoji/{award_id}`,
      operationId: id('remove'),
      summary: `Delete an emoji reaction from ${what}`,
      tags,
      auth: 'token',
      params: one,
      response: { status: 204, description: 'Deleted' },
      errors: [401, 404],
      ...(higherTier && { higherTier: true as const }),
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

const awardable = z.object({ noteable_id: recordIdParam });
const noteOf = awardable.extend({ note_id: recordIdParam });

function awardableEndpoints<const K extends keyof typeof AWARD_OPERATIONS>(
  kind: K,
  segment: string,
  what: string,
) {
  const base = `/projects/{id}/${segment}/{noteable_id}`;
  return [
    ...awardEndpoints(base, awardable, AWARD_OPERATIONS[kind], `a ${what}`),
    ...awardEndpoints(
      `${base}/notes/{note_id}`,
      noteOf,
      NOTE_AWARD_OPERATIONS[kind],
      `a comment on a ${what}`,
    ),
  ];
}

const epicAwardable = z.object({ epic_iid: recordIdParam });

/** An epic's routes and its notes' (ee/lib/ee/api/helpers/award_emoji.rb): group-level, a higher tier. */
function epicEndpoints() {
  const base = '/groups/{id}/epics/{epic_iid}';
  return [
    ...awardEndpoints(base, epicAwardable, AWARD_OPERATIONS.Epic, 'an epic', true),
    ...awardEndpoints(
      `${base}/notes/{note_id}`,
      epicAwardable.extend({ note_id: recordIdParam }),
      NOTE_AWARD_OPERATIONS.Epic,
      'a comment on an epic',
      true,
    ),
  ];
}

export const AWARD_EMOJI_ENDPOINTS = defineEndpoints('discussions', [
  ...awardableEndpoints('Issue', 'issues', 'issue'),
  ...awardableEndpoints('MergeRequest', 'merge_requests', 'merge request'),
  ...awardableEndpoints('Snippet', 'snippets', 'snippet'),
  ...epicEndpoints(),
]);
