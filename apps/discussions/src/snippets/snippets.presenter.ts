import type { SnippetEntity } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';
import { isoNow, type NamespaceView } from '../common/presenting';
import { SNIPPET_REF, filesOf, wellFormed } from './snippet-files';

/** Where a snippet's pages are: its project's `/-/snippets/:id`, or the instance's for personal ones. */
export function snippetWebUrl(doc: Pick<NoteableDoc, '_id'>, parentWebUrl: string): string {
  return `${parentWebUrl.replace(/\/+$/, '')}/-/snippets/${doc._id}`;
}

/**
 * Entities::Snippet (Entities::ProjectSnippet, Entities::PersonalSnippet): `file_name` is the first file,
 * `files` each file with its raw URL on the snippet's branch. `parentWebUrl`: the project's web URL, or
 * the instance's for a personal snippet.
 */
export function presentSnippetEntity(
  doc: NoteableDoc,
  parentWebUrl: string,
): Omit<SnippetEntity, 'project_id'> & { project_id: number | null } {
  const webUrl = snippetWebUrl(doc, parentWebUrl);
  const files = filesOf(doc);
  return {
    id: doc._id,
    title: doc.title,
    description: doc.description,
    visibility: doc.visibility ?? 'private',
    author: doc.author,
    created_at: isoNow(doc.createdAt),
    updated_at: isoNow(doc.updatedAt),
    project_id: doc.projectId,
    file_name: files[0]?.path ?? '',
    files: files.map((f) => ({
      path: f.path,
      raw_url: `${webUrl}/raw/${SNIPPET_REF}/${encodeURI(wellFormed(f.path))}`,
    })),
    web_url: webUrl,
    raw_url: `${webUrl}/raw`,
  };
}

/** A project snippet (Entities::ProjectSnippet): its files, the first as `file_name` (presentSnippetEntity). */
export function presentSnippet(doc: NoteableDoc, ns: NamespaceView): SnippetEntity {
  return Object.assign(presentSnippetEntity(doc, ns.webUrl), { project_id: doc.projectId! });
}
