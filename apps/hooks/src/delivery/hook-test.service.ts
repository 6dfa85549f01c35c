import { randomUUID } from 'node:crypto';
import type { EventActor, EventEnvelope, HookEventFlag } from '@gl/contracts';
import { HttpError } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';
import { buildPayload, SCOPES, type HookScope } from '../payloads/build';
import type { DiscussionsSource } from '../payloads/discussions-source';
import { payloadProject } from '../payloads/project';
import type { DeliveryDoc } from './delivery.models';
import { unattempted, type DeliveryStore } from './delivery.store';
import type { SampleKind, SampleStore } from './samples.store';
import type { Sender } from './sender';

/**
 * The triggers a test can send, with the record each sends and the message when the project has none
 * (TestHooks::ProjectService#data, app/models/concerns/integrations/project_test_data.rb). Others,
 * confidential_note_events among them (ProjectService#data has no case for it), are "Testing not
 * available for this hook" (TestHooks::BaseService#execute); so is resource_deploy_token_events for a group
 * hook (GroupHook's triggers, app/models/hooks/group_hook.rb, have no such key).
 */
interface TestSpec {
  kind: SampleKind;
  scope: HookScope;
  missing: string;
}

const TESTS: Partial<Record<HookEventFlag, TestSpec>> = {
  issues_events: { kind: 'issue', scope: SCOPES.issue, missing: 'Ensure the project has issues.' },
  confidential_issues_events: {
    kind: 'issue',
    scope: SCOPES.confidentialIssue,
    missing: 'Ensure the project has issues.',
  },
  note_events: { kind: 'note', scope: SCOPES.note, missing: 'Ensure the project has notes.' },
  merge_requests_events: {
    kind: 'mergeRequest',
    scope: SCOPES.mergeRequest,
    missing: 'Ensure the project has merge requests.',
  },
  // Beyond GitLab (no alert webhooks there): the newest alert as recorded, in ProjectService's words.
  alert_events: { kind: 'alert', scope: SCOPES.alert, missing: 'Ensure the project has alerts.' },
};

/** lib/api/hooks/trigger_test.rb's failures: `render_api_error!(result.message, 422)`. */
const unprocessable = (message: string) => new HttpError(422, { message });

export interface HookTestDeps {
  store: DeliveryStore;
  samples: SampleStore;
  sender: Pick<Sender, 'sendOnce'>;
  source: DiscussionsSource;
  externalUrl: string;
}

/**
 * ee/app/services/test_hooks/group_service.rb: without a project below the group, this message, before the
 * trigger is looked at.
 */
export const GROUP_WITHOUT_PROJECT = 'Ensure the group has a project with commits.';

/** TestHooks::ProjectService and TestHooks::GroupService: a project or group hook's test delivery. */
export function createHookTestService(deps: HookTestDeps) {
  /** The payload of `sample` (a record of `projectId`), `actor` as its user. */
  async function payloadOf(projectId: number, sample: EventEnvelope, scope: HookScope, actor: EventActor) {
    return buildPayload(
      {
        event: { ...sample, id: randomUUID(), actor },
        project: payloadProject(projectId, await deps.store.projectCopy(projectId)),
        externalUrl: deps.externalUrl,
        source: deps.source,
      },
      scope,
    );
  }

  /**
   * `hook.execute(data, trigger_key, force: true)`: sent at once and logged, never retried. Throws 422
   * with the reason when there is nothing to send or the hook did not answer 2xx (its body, or the error).
   */
  async function send(
    hook: HookDoc,
    spec: TestSpec,
    projectId: number,
    sample: EventEnvelope | null,
    actor: EventActor,
  ) {
    const payload = sample ? await payloadOf(projectId, sample, spec.scope, actor) : null;
    if (!payload) throw unprocessable(spec.missing);
    const now = new Date();
    const eventId = randomUUID();
    const delivery: DeliveryDoc = {
      _id: await deps.store.nextId(),
      hookId: hook._id,
      eventId: `test:${eventId}`,
      // Outside the hook's order: a test is never queued.
      sequence: 0,
      trigger: spec.scope.trigger,
      eventName: spec.scope.eventName,
      idempotencyKey: randomUUID(),
      eventUuid: eventId,
      payload: JSON.stringify(payload),
      ...unattempted(now, now),
    };
    const sent = await deps.sender.sendOnce(hook, delivery);
    if (sent.status !== 'delivered') throw unprocessable(sent.last?.responseBody || sent.reason || '');
  }

  /** TestHooks::ProjectService: the project's newest record of the trigger's kind. */
  async function test(hook: HookDoc, projectId: number, trigger: HookEventFlag, actor: EventActor) {
    const spec = TESTS[trigger];
    if (!spec) throw unprocessable('Testing not available for this hook');
    await send(hook, spec, projectId, await deps.samples.newest(projectId, spec.kind), actor);
  }

  /**
   * TestHooks::GroupService: the group's first non-empty project (samples.store.ts `belowGroup`), then
   * ProjectService's test of that project with the group hook; the project is looked for first, so a
   * group without projects answers GROUP_WITHOUT_PROJECT whatever the trigger.
   */
  async function testGroup(hook: HookDoc, groupId: number, trigger: HookEventFlag, actor: EventActor) {
    const spec = TESTS[trigger];
    // Any kind finds a project when the trigger has none to send.
    const found = await deps.samples.belowGroup(groupId, spec?.kind ?? 'issue');
    if (!found) throw unprocessable(GROUP_WITHOUT_PROJECT);
    if (!spec) throw unprocessable('Testing not available for this hook');
    await send(hook, spec, found.projectId, found.event, actor);
  }

  return { test, testGroup };
}

export type HookTestService = ReturnType<typeof createHookTestService>;
