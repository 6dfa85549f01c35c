import { REPORTER_IF_PRIVATE, VISIBLE, type Sight } from '../sight';
import type { CellContext, Rules } from './types';

/**
 * Resource events of issues and merge requests (lib/api/resource_label_events.rb,
 * resource_milestone_events.rb, resource_state_events.rb, ee/lib/api/resource_weight_events.rb): every class
 * runs `before { authenticate! }` (anonymous → 401, public projects too), then NotesHelpers#find_noteable
 * (an issuable the caller may not read → 404 "<Type> Not Found"; read_merge_request needs Reporter on
 * private projects). A fresh issuable of each cell carries one event of every kind.
 */
const SOURCE =
  'lib/api/resource_label_events.rb, lib/api/resource_milestone_events.rb, lib/api/resource_state_events.rb, ' +
  'ee/lib/api/resource_weight_events.rb, lib/api/helpers/notes_helpers.rb (find_noteable)';

const KINDS = [
  { name: 'Label', types: ['Issue', 'MergeRequest'] },
  { name: 'Milestone', types: ['Issue', 'MergeRequest'] },
  { name: 'State', types: ['Issue', 'MergeRequest'] },
  { name: 'Weight', types: ['Issue'] },
] as const;

function rulesFor(kind: (typeof KINDS)[number]['name'], type: 'Issue' | 'MergeRequest'): Rules {
  const read: Sight | undefined = type === 'MergeRequest' ? REPORTER_IF_PRIVATE : undefined;
  const base = {
    target: 'project' as const,
    see: VISIBLE,
    ...(read ? { need: read, denied: 404 as const } : {}),
    source: SOURCE,
  };
  const iidOf = (c: CellContext) => (type === 'Issue' ? c.r.issueIid : c.r.mergeRequestIid);
  return {
    [`list${type}Resource${kind}Events`]: {
      ...base,
      params: (c) => ({ eventable_id: iidOf(c), eventable_iid: iidOf(c) }),
    },
    [`get${type}Resource${kind}Event`]: { ...base, fresh: 'resourceEvent' },
  };
}

export const RESOURCE_EVENT_RULES: Rules = Object.assign(
  {},
  ...KINDS.flatMap((k) => k.types.map((type) => rulesFor(k.name, type))),
) as Rules;
