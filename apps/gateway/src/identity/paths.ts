import { TEXT_LIMITS, lengthErrors } from '@gl/contracts';
import type { RouteSource, RoutesStore } from './routes.store';

/**
 * Gitlab::PathRegex: a namespace path is letters, digits, `_`, `-`, `.`; it cannot start with `-`, end in
 * `.`, `.git` or `.atom`. Project paths may end in `.` but follow the same rules otherwise.
 */
const NAMESPACE_PATH = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]{0,254}$/;
const BAD_SUFFIX = /(\.git|\.atom)$/;
export const PATH_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

export function namespacePathErrors(path: string): string[] {
  if (path.trim() === '') return ["can't be blank"];
  if (!NAMESPACE_PATH.test(path) || path.endsWith('.') || BAD_SUFFIX.test(path)) return [PATH_FORMAT_MESSAGE];
  return [];
}

export function projectPathErrors(path: string): string[] {
  if (path.trim() === '') return ["can't be blank"];
  if (!NAMESPACE_PATH.test(path) || BAD_SUFFIX.test(path)) return [PATH_FORMAT_MESSAGE];
  return [];
}

export function nameErrors(name: string): string[] {
  if (name.trim() === '') return ["can't be blank"];
  return lengthErrors(name, TEXT_LIMITS.namespaceName);
}

/** Rails' `parameterize`, used when a project is created with a name only. */
export function parameterize(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\-_]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
}

export function joinPath(parent: string | null, path: string): string {
  return parent ? `${parent}/${path}` : path;
}

/**
 * Inserts the document that will own a new full path: the route is claimed first and given back when the
 * insert fails. `taken` is the caller's error for a path that is someone else's; a document written
 * without its route (fixtures, older data) still owns its full path, so an insert refused as a duplicate
 * (`insert` resolving false) counts as taken.
 */
export async function insertWithRoute(
  routes: RoutesStore,
  fullPath: string,
  source: RouteSource,
  insert: () => Promise<boolean>,
  taken: () => Error,
): Promise<void> {
  if (!(await routes.claim(fullPath, source))) throw taken();
  let inserted: boolean;
  try {
    inserted = await insert();
  } catch (err) {
    await routes.release(fullPath, source);
    throw err;
  }
  if (!inserted) {
    await routes.release(fullPath, source);
    throw taken();
  }
}

/** Ruby's Hash#inspect of validation errors, as GitLab embeds it in "Failed to save group {...}". */
export { rubyInspect } from '@gl/service-kit';

/** Collects model validation errors in declaration order, GitLab's `errors.messages`. */
export class ValidationErrors {
  readonly fields: Record<string, string[]> = {};

  add(field: string, messages: string[] | string): void {
    const list = Array.isArray(messages) ? messages : [messages];
    if (list.length === 0) return;
    (this.fields[field] ??= []).push(...list);
  }

  has(field?: string): boolean {
    return field ? (this.fields[field]?.length ?? 0) > 0 : Object.keys(this.fields).length > 0;
  }
}
