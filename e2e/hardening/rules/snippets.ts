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
  deleteProjectSnippet: {
    target: 'project',
    see: VISIBLE,
    role: 'maintainer',
    fresh: 'snippet',
    source:
      'lib/api/project_snippets.rb `delete ":id/snippets/:snippet_id"`: snippets_for_current_user → 404, ' +
      'then authorize! :admin_snippet → 403',
  },
};
