import type { IssueLinkType, UserSummary } from '@gl/contracts';
import { HttpError, NotFoundError, toSentence, type Counters, type EventOrigin } from '@gl/service-kit';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NotesService } from '../notes/notes.service';
import { targetOfNoteable } from '../notes/note-target';
import type { IssueLinkDoc, StoredLinkType } from './issue-link.model';
import type { IssueLinksStore } from './issue-links.store';

export type { IssueLinkDoc } from './issue-link.model';

/** IssuableLink::MAX_LINKS_COUNT. */
export const MAX_LINKS_COUNT = 100;

/** IssueLinks::CreateService#issuables_no_permission_error_message. */
export const NO_LINK_PERMISSION =
  "Couldn't link issues. You must have at least the Guest role in both projects.";

/** An issue with its project's full path, for the references its system notes write. */
export interface PlacedIssue {
  doc: NoteableDoc;
  fullPath: string;
}

/**
 * Issue#to_reference(from): `#iid` within one project, `project#iid` from another project of the same
 * namespace, the full path otherwise (Project#to_reference_base).
 */
export function issueReference(issue: PlacedIssue, from: PlacedIssue): string {
  if (issue.doc.projectId === from.doc.projectId) return `#${issue.doc.iid}`;
  const namespace = (path: string) => path.slice(0, Math.max(path.lastIndexOf('/'), 0));
  const sameNamespace = namespace(issue.fullPath) === namespace(from.fullPath);
  const base = sameNamespace ? issue.fullPath.slice(issue.fullPath.lastIndexOf('/') + 1) : issue.fullPath;
  return `${base}#${issue.doc.iid}`;
}

/**
 * Issue#issue_link_type: the stored type when the shown issue is the link's target, else its inverse
 * (EE IssueLink.inverse_link_type: `blocks` seen from the blocked issue is `is_blocked_by`).
 */
export function linkTypeSeenFrom(link: IssueLinkDoc, shownIssueId: number): IssueLinkType {
  if (link.targetId === shownIssueId || link.linkType === 'relates_to') return link.linkType;
  return 'is_blocked_by';
}

/** ActiveRecord's integer cast of an id given as a string (`find("12")`; anything else finds nothing). */
export function idOfString(raw: string): number {
  const digits = /^\s*[+-]?\d+/.exec(raw)?.[0];
  const id = digits === undefined ? 0 : Number(digits);
  return Number.isSafeInteger(id) ? id : 0;
}

/** What the caller may do, as the router found it (IssuePolicy's admin_issue_link and the tier). */
export interface LinkPermissions {
  /** admin_issue_link on the target issue: `linkable_issuables`. */
  adminsTarget: boolean;
  /** The blocked_issues feature (ee IssueLinks::CreateService#link_type_available?). */
  blockedIssues: boolean;
}

/** Issue links (app/services/issue_links, app/services/issuable_links): list, find, create, destroy. */
export function createIssueLinksService(deps: {
  counters: Counters;
  store: IssueLinksStore;
  notes: Pick<NotesService, 'createSystemNote'>;
}) {
  const { counters, store, notes } = deps;

  /** `IssueLink.for_source_or_target(issue).find(id)`: RecordNotFound → "404 Not found". */
  async function find(issue: NoteableDoc, rawLinkId: string): Promise<IssueLinkDoc> {
    const link = await store.ofIssueById(issue._id, idOfString(rawLinkId));
    if (!link) throw new NotFoundError();
    return link;
  }

  /** The 422 of IssuableLinks::CreateService#link_issuables: "<ref> cannot be added: <errors>". */
  async function validate(source: PlacedIssue, target: PlacedIssue, existing: number) {
    const errors: string[] = [];
    // IssuableLink#check_self_relation.
    if (source.doc._id === target.doc._id) errors.push('cannot be related to itself');
    // IssuableLink#validate_max_number_of_links, for the source and then the target.
    const tooMany = `This issue would exceed the maximum number of linked issues (${MAX_LINKS_COUNT}).`;
    if (existing >= MAX_LINKS_COUNT) errors.push(tooMany);
    if (
      source.doc._id !== target.doc._id &&
      (await store.ofIssue(target.doc._id)).length >= MAX_LINKS_COUNT
    ) {
      errors.push(tooMany);
    }
    if (errors.length > 0) {
      // `referenced_object.to_reference`: no `from`, so the bare `#iid`.
      const message = `#${target.doc.iid} cannot be added: ${toSentence(errors)}`;
      throw new HttpError(422, { message });
    }
  }

  /**
   * A system note on each end of a link (or of a removed one): `onSource` on the source and `onTarget` on
   * the target, each followed by the reference to the other end as seen from there.
   */
  async function noteBothEnds(
    origin: EventOrigin,
    actor: UserSummary,
    { source, target }: { source: PlacedIssue; target: PlacedIssue },
    onSource: string,
    onTarget: string,
  ) {
    await notes.createSystemNote(
      origin,
      targetOfNoteable(source.doc),
      actor,
      `${onSource} ${issueReference(target, source)}`,
    );
    await notes.createSystemNote(
      origin,
      targetOfNoteable(target.doc),
      actor,
      `${onTarget} ${issueReference(source, target)}`,
    );
  }

  /** SystemNoteService.relate_issuable, or EE's block_issuable and blocked_by_issuable for `blocks`. */
  async function noteLinked(
    origin: EventOrigin,
    actor: UserSummary,
    link: IssueLinkDoc,
    ends: PlacedIssue[],
  ) {
    const [source, target] = ends as [PlacedIssue, PlacedIssue];
    const [onSource, onTarget] =
      link.linkType === 'blocks'
        ? ['marked this issue as blocking', 'marked this issue as blocked by']
        : ['marked this issue as related to', 'marked this issue as related to'];
    await noteBothEnds(origin, actor, { source, target }, onSource, onTarget);
  }

  /**
   * IssueLinks::CreateService with EE's link types. In GitLab's order: a higher-tier type without the
   * feature → 403; the target already related either way → 409; a target the caller may not admin links
   * of → 403 (the service's 404 needs a target the caller cannot read, which lib/api/issue_links.rb has
   * already answered with find_project_issue's 404); then the link's validations → 422. `is_blocked_by` is
   * stored as the target `blocks` the source (source and target swapped).
   */
  async function create(
    origin: EventOrigin,
    actor: UserSummary,
    ends: { source: PlacedIssue; target: PlacedIssue },
    linkType: IssueLinkType,
    can: LinkPermissions,
  ): Promise<{ link: IssueLinkDoc; source: PlacedIssue; target: PlacedIssue }> {
    const { source, target } = ends;
    if (linkType !== 'relates_to' && !can.blockedIssues) {
      throw new HttpError(403, { message: 'Blocked issues not available for current license' });
    }
    const existing = await store.ofIssue(source.doc._id);
    // Issue#related_issues: the other issue of each of the source's links.
    const related = (l: IssueLinkDoc) =>
      (l.sourceId === source.doc._id ? l.targetId : l.sourceId) === target.doc._id;
    if (existing.some(related)) throw new HttpError(409, { message: 'Issue(s) already assigned' });
    if (!can.adminsTarget) throw new HttpError(403, { message: NO_LINK_PERMISSION });
    await validate(source, target, existing.length);
    const [from, to] = linkType === 'is_blocked_by' ? [target, source] : [source, target];
    const type: StoredLinkType = linkType === 'relates_to' ? 'relates_to' : 'blocks';
    const now = new Date();
    const stored = await store.insert({
      _id: await counters.next('issue_links'),
      sourceId: from.doc._id,
      targetId: to.doc._id,
      linkType: type,
      createdAt: now,
      updatedAt: now,
    });
    // A concurrent request linked the pair first: the conflict it would have met.
    if (!stored) throw new HttpError(409, { message: 'Issue(s) already assigned' });
    await noteLinked(origin, actor, stored, [from, to]);
    return { link: stored, source: from, target: to };
  }

  /**
   * IssueLinks::DestroyService: admin_issue_link on both issues, else 404 "No Issue Link found"; then
   * SystemNoteService.unrelate_issuable on each side.
   */
  async function destroy(
    origin: EventOrigin,
    actor: UserSummary,
    link: IssueLinkDoc,
    ends: { source: PlacedIssue; target: PlacedIssue },
    adminsBoth: boolean,
  ): Promise<void> {
    if (!adminsBoth) throw new HttpError(404, { message: 'No Issue Link found' });
    await store.remove(link._id);
    const removed = 'removed the relation with';
    await noteBothEnds(origin, actor, ends, removed, removed);
  }

  return {
    linksOf: (issue: NoteableDoc) => store.ofIssue(issue._id),
    find,
    create,
    destroy,
    /** The id of a project named by its full path (`find_project!` with a path), or null. */
    projectIdOfPath: (fullPath: string) => store.projectByPath(fullPath),
  };
}

export type IssueLinksService = ReturnType<typeof createIssueLinksService>;
