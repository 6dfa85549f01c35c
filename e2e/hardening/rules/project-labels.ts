import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Project labels. lib/api/labels.rb runs `before { authenticate! }` (anonymous reads too are 401), finds
 * the project with user_project (404), reads with read_label (whoever reads the project) and writes with
 * admin_label (app/policies/project_policy.rb: Reporter); lib/api/subscriptions.rb finds the label with
 * find_label (lib/api/helpers/label_helpers.rb).
 */
const source = 'lib/api/labels.rb (`before { authenticate! }`), lib/api/helpers/label_helpers.rb';

export const PROJECT_LABEL_RULES: Rules = {
  listProjectLabels: { target: 'project', see: VISIBLE, source: `${source}: get_labels (LabelsFinder)` },
  getProjectLabel: { target: 'project', see: VISIBLE, source: `${source}: get_label → find_label` },
  createProjectLabel: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ name: unique('plbl-'), color: '#123456' }),
    source: `${source}: create_label, authorize! :create_label (admin_label)`,
  },
  updateProjectLabel: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    params: (c) => ({ label_id: c.r.projectLabel.id }),
    body: () => ({ description: `matrix ${unique('d')}` }),
    source: `${source}: update_label, authorize! :update_label`,
  },
  updateProjectLabelByName: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    body: (c) => ({ name: c.r.projectLabel.name, description: `matrix ${unique('d')}` }),
    source: `${source}: the deprecated put ':id/labels', update_label`,
  },
  deleteProjectLabel: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'projectLabel',
    source: `${source}: delete_label, authorize! :delete_label`,
  },
  promoteProjectLabel: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'projectLabel',
    source: `${source}: promote_label, authorize! :promote_label on the project's group`,
  },
  subscribeProjectLabel: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ label_id: c.r.projectLabel.id }),
    source: 'lib/api/subscriptions.rb (`before { authenticate! }`): user_project, find_label → 404',
  },
  unsubscribeProjectLabel: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ label_id: c.r.projectLabel.id }),
    source: 'lib/api/subscriptions.rb (`before { authenticate! }`): user_project, find_label → 404',
  },
};
