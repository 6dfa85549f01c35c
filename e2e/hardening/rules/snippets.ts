import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Project snippets beyond create, list and read. Sources: lib/api/project_snippets.rb,
 * app/policies/project_snippet_policy.rb (update_snippet and admin_snippet: the author, Maintainers and up).
 */
export const SNIPPET_RULES: Rules = {
  updateProjectSnippet: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    body: () => ({ description: `edited ${unique('d')}` }),
    source:
      'lib/api/project_snippets.rb `put ":id/snippets/:snippet_id"`: snippets_for_current_user → 404, then ' +
      'authorize! :update_snippet → 403 (the Owner made the snippet: others need Maintainer)',
  },
  getProjectSnippetRaw: {
    target: 'project',
    see: VISIBLE,
    variants: [
      {
        name: 'private snippet',
        params: (c) => ({ snippet_id: c.r.privateSnippetId }),
        need: 'guest',
        denied: 404,
        source:
          'app/policies/project_snippet_policy.rb: a private snippet is read by project members, its author ' +
          'and admins only; SnippetsFinder misses it → 404',
      },
    ],
    source:
      'lib/api/project_snippets.rb `get ":id/snippets/:snippet_id/raw"`: snippets_for_current_user → 404',
  },
  getProjectSnippetFileRaw: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ snippet_id: c.r.snippetId, ref: 'main', file_path: 'a.txt' }),
    source:
      'lib/api/project_snippets.rb `get ":id/snippets/:snippet_id/files/:ref/:file_path/raw"`: ' +
      'snippets_for_current_user → 404',
  },
  deleteProjectSnippet: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    fresh: 'snippet',
    source:
      'lib/api/project_snippets.rb `delete ":id/snippets/:snippet_id"`: snippets_for_current_user → 404, ' +
      'then authorize! :admin_snippet → 403',
  },

  // Personal snippets and the lists across snippets (lib/api/snippets.rb). `/snippets/:id` finds project
  // snippets too (SnippetsFinder without a project): the target's snippet is read through it.
  listCurrentUserSnippets: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/snippets.rb `get`: authenticate!; SnippetsFinder(author: current_user)',
  },
  listPublicSnippets: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/snippets.rb `get "public"`: authenticate!; only_personal public snippets',
  },
  listAllSnippets: {
    target: 'none',
    see: 'signed-in',
    source: 'lib/api/snippets.rb `get "all"`: authenticate!; SnippetsFinder(all_available: true)',
  },
  createSnippet: {
    target: 'none',
    see: 'signed-in',
    body: () => ({ title: unique('mx-snip-'), file_name: 'a.txt', content: 'x', visibility: 'private' }),
    source: 'lib/api/snippets.rb `post`: authenticate!, authorize! :create_snippet (any signed-in user)',
  },
  getSnippet: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ id: c.r.snippetId }),
    variants: [
      {
        name: 'private snippet',
        params: (c) => ({ id: c.r.privateSnippetId }),
        need: 'guest',
        denied: 404,
        source: 'app/finders/snippets_finder.rb: a private project snippet is found by members only',
      },
    ],
    source: 'lib/api/snippets.rb `get ":id"`: find_snippet (SnippetsFinder, ids) → not_found!(\'Snippet\')',
  },
  getSnippetRaw: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ id: c.r.snippetId }),
    source: 'lib/api/snippets.rb `get ":id/raw"`: find_snippet → not_found!(\'Snippet\')',
  },
  getSnippetFileRaw: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ id: c.r.snippetId, ref: 'main', file_path: 'a.txt' }),
    source:
      'lib/api/snippets.rb `get ":id/files/:ref/:file_path/raw"`: find_snippet → not_found!(\'Snippet\')',
  },
  // Only the author finds their snippet among `snippets_for_current_user` (404 for everyone else):
  // covered by apps/discussions/src/snippets/personal-snippets.component.spec.ts and e2e/personal-snippets.
  updateSnippet: {
    target: 'none',
    special: 'caller-owned',
    source: 'lib/api/snippets.rb `put ":id"`: snippets_for_current_user.find_by_id → 404',
  },
  deleteSnippet: {
    target: 'none',
    special: 'caller-owned',
    source: 'lib/api/snippets.rb `delete ":id"`: snippets_for_current_user.find_by_id → 404',
  },
};
