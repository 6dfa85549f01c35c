import { featureAvailable } from './project-features';

describe('featureAvailable (ProjectFeature#feature_available?)', () => {
  it('When a project carries no levels (older events), then every feature is enabled for its readers', () => {
    expect(featureAvailable(undefined, 'issues', 0)).toBe(true);
    expect(featureAvailable(null, 'container_registry', 0)).toBe(true);
    expect(featureAvailable({ issues: 'disabled' }, 'merge_requests', 0)).toBe(true);
  });

  it('When a feature is disabled, then no one uses it, owners and admins included', () => {
    expect(featureAvailable({ issues: 'disabled' }, 'issues', 50)).toBe(false);
    expect(featureAvailable({ issues: 'disabled' }, 'issues', 60)).toBe(false);
  });

  it('When a feature is private, then members with its minimum role: Guest, Reporter for merge requests and the registry', () => {
    expect(featureAvailable({ issues: 'private' }, 'issues', 0)).toBe(false);
    expect(featureAvailable({ issues: 'private' }, 'issues', 10)).toBe(true);
    expect(featureAvailable({ snippets: 'private' }, 'snippets', 10)).toBe(true);
    expect(featureAvailable({ merge_requests: 'private' }, 'merge_requests', 10)).toBe(false);
    expect(featureAvailable({ merge_requests: 'private' }, 'merge_requests', 20)).toBe(true);
    expect(featureAvailable({ container_registry: 'private' }, 'container_registry', 10)).toBe(false);
    expect(featureAvailable({ container_registry: 'private' }, 'container_registry', 60)).toBe(true);
  });

  it('When a feature is enabled or public, then every reader of the project', () => {
    expect(featureAvailable({ issues: 'enabled' }, 'issues', 0)).toBe(true);
    expect(featureAvailable({ pages: 'public' }, 'pages', 0)).toBe(true);
  });
});
