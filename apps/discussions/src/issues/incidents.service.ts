import { DOMAIN_EVENT_TYPES, type EventActor, type IncidentOpenedData } from '@gl/contracts';
import { createEvent, type Counters, type EventOrigin } from '@gl/service-kit';
import type { NoteableDoc } from '../noteables/noteable.model';
import { blankNoteable, summaryOfActor } from '../noteables/noteable-documents';
import type { IssueUpdate } from '../noteables/noteable-writes';
import type { NoteablesStore } from '../noteables/noteables.store';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

/** What an incident needs of the issues it opens and closes. */
export interface IncidentIssues {
  insert: (
    origin: EventOrigin,
    doc: NoteableDoc,
    type: string,
    extra: ReturnType<typeof createEvent>[],
    options: { once: boolean },
  ) => Promise<NoteableDoc>;
  updateIssue: (
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: ReturnType<typeof summaryOfActor>,
    input: IssueUpdate,
  ) => Promise<unknown>;
  /**
   * The issue's place at the end of its project's position scope (Issues::CreateService moves every new
   * issue to the end), null when the project is unknown here.
   */
  placeAtEnd: (
    projectId: number,
    issueId: number,
  ) => Promise<{ positionScope: string; relativePosition: number | null } | null>;
}

/** Incident issues opened and closed by alerts (the alerts service's events). */
export function createIncidentsService(
  deps: {
    counters: Counters;
    store: Pick<NoteablesStore, 'incidentLink' | 'reserveIncidentLink' | 'exists' | 'findById'>;
  },
  issues: IncidentIssues,
) {
  const { counters, store } = deps;
  const { insert, updateIssue, placeAtEnd } = issues;

  /** `gl.alerts.alert.created` with createIncident: one incident issue per alert, whatever redelivers. */
  async function openIncident(
    origin: EventOrigin,
    projectId: number,
    actor: EventActor,
    alert: { alertId: string; title: string; description: string | null },
  ): Promise<void> {
    const link =
      (await store.incidentLink(alert.alertId)) ??
      (await store.reserveIncidentLink({
        _id: alert.alertId,
        projectId,
        issueId: await counters.next('noteable'),
        issueIid: await counters.next(`issues:${projectId}`),
      }));
    if (!link || (await store.exists(link.issueId))) return;
    const author = summaryOfActor(actor);
    const doc = blankNoteable('Issue', link.issueId, link.issueIid, author, alert.title);
    Object.assign(doc, {
      projectId,
      description: alert.description,
      issueType: 'incident',
      alertId: alert.alertId,
      // Its root group's lists and boards find it by its scope (lists/root-scope.ts).
      ...(await placeAtEnd(projectId, link.issueId)),
    });
    const opened = createEvent(origin, {
      type: EVENTS.incidentOpened,
      actor,
      projectId,
      data: {
        alertId: alert.alertId,
        issueId: link.issueId,
        issueIid: link.issueIid,
      } satisfies IncidentOpenedData,
    });
    // A redelivery racing this one may have inserted the issue meanwhile: then it is not inserted again.
    await insert(origin, doc, EVENTS.issueOpened, [opened], { once: true });
  }

  /** `gl.alerts.alert.resolved`: closes the alert's incident issue (system note "closed"), if it is open. */
  async function closeIncident(origin: EventOrigin, alertId: string, actor: EventActor): Promise<void> {
    const link = await store.incidentLink(alertId);
    if (!link) return;
    const issue = await store.findById(link.issueId);
    if (!issue || issue.state !== 'opened') return;
    await updateIssue(origin, issue, summaryOfActor(actor), { state_event: 'close' });
  }

  return { openIncident, closeIncident };
}

export type IncidentsService = ReturnType<typeof createIncidentsService>;
