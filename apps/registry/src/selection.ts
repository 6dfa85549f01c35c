import RE2 from 're2';
import { parseChronicDuration } from './duration';

/** A tag as the cleanup sees it: its name and image creation time (null when unknown). */
export interface CleanupCandidate {
  name: string;
  createdAt: Date | null;
}

export interface CleanupRules {
  nameRegexDelete: string;
  nameRegexKeep: string | null;
  keepN: number | null;
  olderThan: string | null;
}

export interface CleanupSelection {
  /** Tags whose name the delete expression matches (never `latest`). */
  matched: number;
  /** Matched tags that stay: kept by name, count or age, or left for a later run by the cap. */
  kept: number;
  /** Names to delete in this run, oldest first. */
  toDelete: string[];
  /** True when the per-run cap left matching tags for the next call. */
  truncated: boolean;
  /** Why nothing was deleted, when the rules could not be applied. */
  error: string | null;
}

/** Compiles an expression anchored to the whole name (`\A…\z`), as Gitlab::UntrustedRegexp. */
export function anchoredRegexp(source: string): RE2 {
  return new RE2(`\\A(?:${source})\\z`);
}

/** RE2's reason when the expression does not compile, else null. */
export function regexpError(source: string): string | null {
  try {
    new RE2(source);
    return null;
  } catch (err) {
    // RE2 throws SyntaxError; compare by shape (jest runs tests in another realm).
    const message = (err as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : String(err);
  }
}

/**
 * Which tags one bulk delete removes (GitLab's CleanupTagsService): never `latest`; only names matching the
 * delete expression and not the keep expression; the `keepN` newest of those (by image creation time, unknown
 * times counting as now) stay; with `olderThan`, only tags created before now − span go (unknown times stay;
 * an unparsable span deletes nothing); at most `maxPerRun` (0 = no cap) per run, oldest first.
 */
export function selectTagsToDelete(
  tags: readonly CleanupCandidate[],
  rules: CleanupRules,
  now: Date,
  maxPerRun = 0,
): CleanupSelection {
  const empty = (matched: number, error: string | null): CleanupSelection => ({
    matched,
    kept: matched,
    toDelete: [],
    truncated: false,
    error,
  });
  let remove: RE2;
  let keep: RE2 | null;
  try {
    remove = anchoredRegexp(rules.nameRegexDelete);
    keep = rules.nameRegexKeep === null ? null : anchoredRegexp(rules.nameRegexKeep);
  } catch {
    return empty(0, 'invalid regex');
  }
  const matching = tags.filter((t) => t.name !== 'latest' && remove.test(t.name));
  let candidates = matching.filter((t) => !keep?.test(t.name));

  const time = (t: CleanupCandidate): number => t.createdAt?.getTime() ?? now.getTime();
  if (rules.keepN !== null && rules.keepN > 0) {
    const newestFirst = [...candidates].sort((a, b) => time(b) - time(a) || a.name.localeCompare(b.name));
    candidates = newestFirst.slice(rules.keepN);
  }
  if (rules.olderThan !== null) {
    const seconds = parseChronicDuration(rules.olderThan);
    if (seconds === null) return empty(matching.length, 'invalid older_than');
    const limit = now.getTime() - seconds * 1000;
    candidates = candidates.filter((t) => t.createdAt !== null && t.createdAt.getTime() < limit);
  }
  const oldestFirst = [...candidates].sort((a, b) => time(a) - time(b) || a.name.localeCompare(b.name));
  const capped = maxPerRun > 0 ? oldestFirst.slice(0, maxPerRun) : oldestFirst;
  return {
    matched: matching.length,
    kept: matching.length - capped.length,
    toDelete: capped.map((t) => t.name),
    truncated: capped.length < oldestFirst.length,
    error: null,
  };
}
