import { DOMAIN_EVENT_TYPES, type EventActor, type IncidentOpenedData } from '@gl/contracts';
import { createEvent, isDuplicateKeyError, type EventOrigin } from '@gl/service-kit';
import type { IncidentLinkDoc, NoteableDoc } from './discussions.models';
import { blankNoteable, summaryOfActor, type IssueUpdate } from './noteable-documents';
import type { NotesDeps } from './notes.service';

const EVENTS = DOMAIN_EVENT_TYPES.discussions;

/** What an incident needs of the issues it opens and closes. */
export interface IncidentIssues {
  insert: (
    origin: EventOrigin,
    doc: NoteableDoc,
    type: string,
    extra: ReturnType<typeof createEvent>[],
  ) => Promise<NoteableDoc>;
  updateIssue: (
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: ReturnType<typeof summaryOfActor>,
    input: IssueUpdate,
  ) => Promise<unknown>;
}

/** Incident issues opened and closed by alerts (the alerts service's events). */
export function createIncidentsService(deps: Pick<NotesDeps, 'models' | 'counters'>, issues: IncidentIssues) {
  const { models, counters } = deps;
  const { insert, updateIssue } = issues;

  /** `gl.alerts.alert.created` with createIncident: one incident issue per alert, whatever redelivers. */
  async function openIncident(
    origin: EventOrigin,
    projectId: number,
    actor: EventActor,
    alert: { alertId: string; title: string; description: string | null },
  ): Promise<void> {
    let link = await models.incidents.findById(alert.alertId).lean<IncidentLinkDoc>();
    if (!link) {
      const reserved = {
        _id: alert.alertId,
        projectId,
        issueId: await counters.next('noteable'),
        issueIid: await counters.next(`issues:${projectId}`),
      };
      try {
        await models.incidents.create(reserved);
        link = reserved;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        link = await models.incidents.findById(alert.alertId).lean<IncidentLinkDoc>();
      }
    }
    if (!link || (await models.noteables.exists({ _id: link.issueId }))) return;
    const author = summaryOfActor(actor);
    const doc = blankNoteable('Issue', link.issueId, link.issueIid, author, alert.title);
    Object.assign(doc, {
      projectId,
      description: alert.description,
      issueType: 'incident',
      alertId: alert.alertId,
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
    try {
      await insert(origin, doc, EVENTS.issueOpened, [opened]);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  /** `gl.alerts.alert.resolved`: closes the alert's incident issue (system note "closed"), if it is open. */
  async function closeIncident(origin: EventOrigin, alertId: string, actor: EventActor): Promise<void> {
    const link = await models.incidents.findById(alertId).lean();
    if (!link) return;
    const issue = await models.noteables.findById(link.issueId).lean<NoteableDoc>();
    if (!issue || issue.state !== 'opened') return;
    await updateIssue(origin, issue, summaryOfActor(actor), { state_event: 'close' });
  }

  return { openIncident, closeIncident };
}
