import { randomUUID } from 'node:crypto';
import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  discussionEntity,
  issueEntity,
  type EventEnvelope,
} from '@gl/contracts';
import { PoisonMessageError, startConsumer } from '@gl/service-kit';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { useHarness } from '@gl/testing';

const ALERTS = DOMAIN_EVENT_TYPES.alerts;
const actor = { id: 9, username: 'alertbot', name: 'Alert Bot' };

function alertEvent(type: string, projectId: number | null, data: Record<string, unknown>): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'alerts',
    correlationId: 'alert-request',
    actor,
    projectId,
    groupId: null,
    data,
  };
}

describe('discussions-incidents consumer', () => {
  const h = useHarness(startDiscussionsHarness);
  const incidents = () => h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsIncidents)!;

  it('When subscribed, then it listens to alert created and resolved on its durable', () => {
    expect(incidents().filterSubjects).toEqual([ALERTS.alertCreated, ALERTS.alertResolved]);
  });

  it('When the same alert.created (createIncident) arrives twice, then one incident issue and one incident.opened', async () => {
    const ns = projectNamespace();
    const alertId = randomUUID();
    const created = alertEvent(ALERTS.alertCreated, ns.id, {
      alertId,
      alertIid: 1,
      title: 'CPU high',
      description: 'load > 10',
      severity: 'critical',
      createIncident: true,
    });
    await incidents().handle(created);
    await incidents().handle({ ...created, id: randomUUID() });
    const list = z.array(issueEntity).parse((await h.call('GET', `/projects/${ns.id}/issues`, { ns })).body);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      iid: 1,
      title: 'CPU high',
      description: 'load > 10',
      issue_type: 'incident',
      type: 'INCIDENT',
      author: { id: actor.id, username: actor.username },
    });
    const opened = (await h.pendingEvents()).filter(
      (e) => e.type === DOMAIN_EVENT_TYPES.discussions.incidentOpened && e.projectId === ns.id,
    );
    expect(opened).toEqual([
      {
        id: expect.any(String) as string,
        type: DOMAIN_EVENT_TYPES.discussions.incidentOpened,
        version: 1,
        occurredAt: expect.any(String) as string,
        producer: 'discussions',
        correlationId: 'alert-request',
        actor,
        projectId: ns.id,
        groupId: null,
        data: { alertId, issueId: list[0]!.id, issueIid: 1 },
      },
    ]);
  });

  it('When alert.created has createIncident false, then no issue is opened', async () => {
    const ns = projectNamespace();
    await incidents().handle(
      alertEvent(ALERTS.alertCreated, ns.id, {
        alertId: randomUUID(),
        alertIid: 1,
        title: 'x',
        description: null,
        severity: 'low',
        createIncident: false,
      }),
    );
    expect((await h.call('GET', `/projects/${ns.id}/issues`, { ns })).body).toEqual([]);
  });

  it('When alert.resolved arrives (twice), then the incident issue is closed once with the system note "closed"', async () => {
    const ns = projectNamespace();
    const alertId = randomUUID();
    await incidents().handle(
      alertEvent(ALERTS.alertCreated, ns.id, {
        alertId,
        alertIid: 2,
        title: 'Disk',
        description: null,
        severity: 'high',
        createIncident: true,
      }),
    );
    const resolved = alertEvent(ALERTS.alertResolved, ns.id, { alertId, alertIid: 2 });
    await incidents().handle(resolved);
    await incidents().handle(resolved);
    const issue = issueEntity.parse((await h.call('GET', `/projects/${ns.id}/issues/1`, { ns })).body);
    expect(issue.state).toBe('closed');
    const threads = z
      .array(discussionEntity)
      .parse((await h.call('GET', `/projects/${ns.id}/issues/1/discussions`, { ns })).body);
    expect(threads.map((t) => t.notes[0]!.body)).toEqual(['closed']);
    const closed = (await h.pendingEvents()).filter(
      (e) => e.type === DOMAIN_EVENT_TYPES.discussions.issueClosed && e.projectId === ns.id,
    );
    expect(closed).toHaveLength(1);
  });

  it('When alert.resolved names an alert without incident, then nothing happens', async () => {
    await expect(
      incidents().handle(alertEvent(ALERTS.alertResolved, 1, { alertId: randomUUID(), alertIid: 1 })),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['data that breaks the schema', alertEvent(ALERTS.alertCreated, 1, { alertId: 5 })],
    ['no projectId', alertEvent(ALERTS.alertCreated, null, { alertId: 'a', alertIid: 1 })],
  ])('When an event has %s, then PoisonMessageError', async (_what, event) => {
    await expect(incidents().handle(event)).rejects.toBeInstanceOf(PoisonMessageError);
  });

  it('When an invalid event comes through the bus, then the consumer terminates it and a valid one still opens its incident', async () => {
    const ns = projectNamespace();
    const durable = `discussions-incidents-test-${ns.id}`;
    const consumer = await startConsumer(
      h.runtime.bus,
      { ...incidents(), durable },
      h.runtime.logger,
      h.runtime.metrics,
    );
    try {
      await h.runtime.bus.publish(alertEvent(ALERTS.alertCreated, ns.id, { alertId: 'broken' }));
      await h.runtime.bus.publish(
        alertEvent(ALERTS.alertCreated, ns.id, {
          alertId: randomUUID(),
          alertIid: 3,
          title: 'Via bus',
          description: null,
          severity: 'low',
          createIncident: true,
        }),
      );
      const deadline = Date.now() + 10_000;
      let issues: unknown[] = [];
      while (issues.length === 0 && Date.now() < deadline) {
        issues = (await h.call('GET', `/projects/${ns.id}/issues`, { ns })).body as unknown[];
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(issues).toHaveLength(1);
      const terminated = await h.runtime.metrics.registry.getSingleMetricAsString(
        'domain_events_consumed_total',
      );
      expect(terminated).toContain(`durable="${durable}",outcome="terminated"`);
    } finally {
      await consumer.stop();
    }
  });
});
