import type { Request, Response } from 'express';
import { SNIPPET_UPDATE_AT_LEAST_ONE_OF, type Principal, type SnippetFileAction } from '@gl/contracts';
import {
  ModelError,
  NotFoundError,
  ParamError,
  atLeastOneOf,
  collectParams,
  mutuallyExclusive,
  requestOrigin,
  requireExactlyOne,
} from '@gl/service-kit';
import { userSummaryOf } from '../common/access';
import { SERVICE_PRODUCER } from '../common/origin';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteablesService } from '../noteables/noteables.service';
import {
  SNIPPET_MAX_FILES,
  SNIPPET_REF,
  applyFileActions,
  filesOf,
  orEmptyFileName,
  wellFormed,
  type SnippetFile,
} from './snippet-files';
import type { SnippetChanges } from './snippets.service';

/**
 * What the project snippet and personal snippet routes share (lib/api/helpers/snippets_helpers.rb): the
 * files a request creates or changes, Grape's rules on them, and the raw answers.
 */

/**
 * Grape's `file_path: true` (lib/api/validations/validators/file_path.rb): Gitlab::PathTraversal refuses a
 * `..` segment and an absolute path, "<name> should be a valid file path".
 */
function isValidFilePath(path: string): boolean {
  return !/(^|[\\/])\.\.([\\/]|$)/.test(path) && !path.startsWith('/');
}

/** The `file_path: true` parameters of a `files` array (file_path, previous_path), by index. */
function filePathErrors(files: { file_path?: string; previous_path?: string }[] | undefined): string[] {
  return (files ?? []).flatMap((file, i) =>
    (['file_path', 'previous_path'] as const)
      .filter((key) => file[key] !== undefined && !isValidFilePath(file[key]))
      .map((key) => `files[${i}][${key}] should be a valid file path`),
  );
}

/** The raw file route's `file_path` (raw_file_params), checked as Grape does before the lookup. */
function requireValidFilePath(filePath: string): void {
  if (!isValidFilePath(filePath)) {
    throw new ParamError(['file_path should be a valid file path']);
  }
}

/**
 * Snippet::MAX_FILE_COUNT: more files than a snippet holds. The message is the snippet repository check's
 * (Snippets::RepositoryValidationService).
 */
function requireFileCount(files: SnippetFile[]): SnippetFile[] {
  if (files.length > SNIPPET_MAX_FILES) throw ModelError.error('Repository files count over the limit');
  return files;
}

/**
 * The files of a new snippet (lib/api/helpers/snippets_helpers.rb create_file_params): exactly one of
 * `content` (with `file_name`, Grape's `given :content`) and `files`; at most 10 files, each path once.
 */
function filesToCreate(
  req: Request,
  given: { file_name?: string; content?: string; files?: { file_path: string; content: string }[] },
): SnippetFile[] {
  const raw = collectParams(req);
  const paths = filePathErrors(given.files);
  if (paths.length > 0) throw new ParamError(paths);
  const one = requireExactlyOne(raw, ['files', 'content']);
  if (one === 'content') {
    if (given.file_name === undefined) throw new ParamError(['file_name is missing']);
    return [{ path: orEmptyFileName(given.file_name, []), content: given.content! }];
  }
  const files = (given.files ?? []).map((f) => ({ path: f.file_path, content: f.content }));
  // Two files at one path: the service's actions do not apply (SnippetInputActionCollection).
  if (new Set(files.map((f) => f.path)).size !== files.length) throw invalidActions();
  return requireFileCount(files);
}

/** The parameters of a snippet POST (create_file_params and the snippet's own). */
interface SnippetCreateParams {
  title: string;
  description?: string;
  visibility?: string;
  file_name?: string;
  content?: string;
  files?: { file_path: string; content: string }[];
}

/**
 * Snippets::CreateService for a POST: a snippet of `author` in the project `projectId`, or a personal one
 * (null), with the files the request gives; `defaultVisibility` when it names none (the two APIs differ).
 */
export function createRequestedSnippet(
  noteables: NoteablesService,
  req: Request,
  target: { projectId: number | null; author: Principal; defaultVisibility: string },
  given: SnippetCreateParams,
): Promise<NoteableDoc> {
  return noteables.createSnippet(
    requestOrigin(SERVICE_PRODUCER, req.ctx),
    target.projectId,
    userSummaryOf(target.author),
    {
      title: given.title,
      description: given.description,
      visibility: given.visibility ?? target.defaultVisibility,
      files: filesToCreate(req, given),
    },
  );
}

/** Snippets::BaseService#invalid_params_error: 422 {"message":{"error":"Snippet actions have invalid data"}}. */
function invalidActions(): ModelError {
  return ModelError.error('Snippet actions have invalid data', 422);
}

/**
 * What a PUT changes (lib/api/project_snippets.rb and lib/api/snippets.rb `put`): Grape's
 * `at_least_one_of` and `mutually_exclusive` first; `content`/`file_name` only on a snippet of one file
 * (validate_params_for_multiple_files); `files` actions through Snippets::UpdateService.
 */
function snippetChanges(
  snippet: NoteableDoc,
  given: {
    title?: string;
    description?: string;
    visibility?: NonNullable<NoteableDoc['visibility']>;
    file_name?: string;
    content?: string;
    files?: SnippetFileAction[];
  },
): SnippetChanges {
  const changes: SnippetChanges = {
    title: given.title,
    description: given.description,
    visibility: given.visibility,
  };
  const current = filesOf(snippet);
  if (given.files) {
    const applied = applyFileActions(current, given.files);
    if (!applied) throw invalidActions();
    changes.files = requireFileCount(applied);
  } else if (given.file_name !== undefined || given.content !== undefined) {
    if (current.length > 1) {
      throw ModelError.error('To update Snippets with multiple files, you must use the `files` parameter');
    }
    const only = current[0];
    const path = orEmptyFileName(given.file_name ?? only?.path, []);
    changes.files = [{ path, content: given.content ?? only?.content ?? '' }];
  }
  return changes;
}

/** Grape's parameter rules of a snippet PUT, checked before anything is looked up. */
function checkUpdateRules(req: Request, files: SnippetFileAction[] | undefined): void {
  const raw = collectParams(req);
  const paths = filePathErrors(files);
  if (paths.length > 0) throw new ParamError(paths);
  const rules = [
    atLeastOneOf(...SNIPPET_UPDATE_AT_LEAST_ONE_OF),
    mutuallyExclusive('files', 'content'),
    mutuallyExclusive('files', 'file_name'),
  ];
  const broken = rules.map((rule) => rule(raw)).filter((m): m is string => m !== null);
  if (broken.length > 0) throw new ParamError(broken);
}

/**
 * A snippet PUT: Grape's rules first, then `find` looks the snippet up (and refuses whoever may not change
 * it), then Snippets::UpdateService applies what the request changes. Resolves with what `find` found and
 * the snippet as updated.
 */
export async function updateRequestedSnippet<Found extends { snippet: NoteableDoc }>(
  noteables: NoteablesService,
  req: Request,
  given: Parameters<typeof snippetChanges>[1] & { files?: SnippetFileAction[] },
  find: () => Promise<Found>,
): Promise<Found & { updated: NoteableDoc }> {
  checkUpdateRules(req, given.files);
  const found = await find();
  const updated = await noteables.updateSnippet(found.snippet, snippetChanges(found.snippet, given));
  return { ...found, updated };
}

/** Sends one file as text/plain, inline, named after the file (`content_for`, `send_git_blob`). */
function sendSnippetFile(res: Response, file: SnippetFile | undefined): void {
  const name = file?.path ?? '';
  res.status(200);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader(
    'Content-Disposition',
    // The quoted name in printable ASCII only (anything else would be an invalid header); filename* has it all.
    `inline; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(wellFormed(name))}`,
  );
  res.send(file?.content ?? '');
}

/** `content_for(snippet)`: the raw answer of a snippet is its first file. */
export function sendSnippetContent(res: Response, snippet: NoteableDoc): void {
  sendSnippetFile(res, filesOf(snippet)[0]);
}

/**
 * `file_content_for(snippet)`: `file_path` checked before `find` looks the snippet up; then the file at
 * `file_path` (URL-encoded, one segment) on `ref`: the snippet's one branch is the only ref (404
 * Reference), a path it lacks is 404 File.
 */
export async function sendSnippetFileAt(
  res: Response,
  at: { ref: string; file_path: string },
  find: () => Promise<NoteableDoc>,
): Promise<void> {
  requireValidFilePath(at.file_path);
  const snippet = await find();
  if (at.ref !== SNIPPET_REF && at.ref !== 'HEAD') throw new NotFoundError('Reference');
  const file = filesOf(snippet).find((f) => f.path === at.file_path);
  if (!file) throw new NotFoundError('File');
  sendSnippetFile(res, file);
}
