import { TextDecoder } from 'node:util';
import type { CommitFile } from './commit.model';

/** A commit action as lib/api/commits.rb takes it. */
export interface CommitActionInput {
  action: CommitFile['action'];
  file_path: string;
  previous_path?: string;
  content?: string;
  encoding?: 'text' | 'base64';
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Base64 content as text when it is UTF-8, else null (a binary file: diffs say so, as git does). */
function decodeBase64(content: string): string | null {
  try {
    return utf8.decode(Buffer.from(content, 'base64'));
  } catch {
    return null;
  }
}

/** The files a commit's actions change, as the commit keeps them (commit.model.ts CommitFile). */
export function commitFilesOf(actions: CommitActionInput[] = []): CommitFile[] {
  return actions.map((action) => {
    const given = action.content ?? null;
    const content =
      action.action === 'delete' || given === null
        ? null
        : action.encoding === 'base64'
          ? decodeBase64(given)
          : given;
    return {
      action: action.action,
      path: action.file_path,
      previousPath: action.previous_path ?? null,
      content,
      binary: given !== null && content === null,
    };
  });
}
