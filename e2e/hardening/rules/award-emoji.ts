import { REPORTER_IF_PRIVATE, VISIBLE, type Sight } from '../sight';
import type { Rule, Rules } from './types';
import { CREATED_EMOJI } from './emoji-rotation';

/**
 * Award emoji on issues, merge requests, snippets, epics and their notes (lib/api/award_emoji.rb). Reads take an
 * optional token (anonymous callers read public awardables); the awardable is found as the notes API finds
 * its noteable (a noteable the caller may not read → 404). Awarding: `award_emoji` (read the awardable and
 * be signed in). Deleting: `unauthorized! unless award.user == current_user || admin` — the matrix's awards
 * are root's, so only admins delete them and everyone else who finds the award gets 401.
 */
const KINDS: { type: 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic'; read?: Sight }[] = [
  { type: 'Issue' },
  // read_merge_request: reporter_access, or public_access (ProjectPolicy).
  { type: 'MergeRequest', read: REPORTER_IF_PRIVATE },
  { type: 'Snippet' },
  // ee/lib/ee/api/helpers/award_emoji.rb: a group's epic by iid (read_epic: the group's readers).
  { type: 'Epic' },
];

const SOURCE =
  'lib/api/award_emoji.rb, ee/lib/ee/api/helpers/award_emoji.rb, app/services/award_emojis/add_service.rb';

function rulesFor(type: string, read: Sight | undefined, onNote: boolean): Rules {
  const base: Pick<Rule, 'target' | 'see' | 'need' | 'denied' | 'source'> = {
    target: type === 'Epic' ? 'group' : 'project',
    see: VISIBLE,
    ...(read ? { need: read, denied: 404 as const } : {}),
    source: SOURCE,
  };
  const name = `${type}${onNote ? 'Note' : ''}AwardEmoji`;
  return {
    [`list${name}`]: { ...base, query: () => ({ per_page: '100' }) },
    [`get${name}`]: { ...base, fresh: 'award' },
    [`create${name}`]: { ...base, role: 'signed-in', body: () => ({ name: CREATED_EMOJI }) },
    [`delete${name}`]: { ...base, role: 'admin', roleDenied: 401, fresh: 'award' },
  };
}

export const AWARD_EMOJI_RULES: Rules = Object.assign(
  {},
  ...KINDS.flatMap((k) => [rulesFor(k.type, k.read, false), rulesFor(k.type, k.read, true)]),
) as Rules;
