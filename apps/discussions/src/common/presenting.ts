import type { IssueEntity } from '@gl/contracts';

export const iso = (date: Date | null | undefined): string | null =>
  date ? new Date(date).toISOString() : null;
export const isoNow = (date: Date): string => new Date(date).toISOString();

export interface NamespaceView {
  webUrl: string;
  fullPath: string;
}

export function references(prefix: string, iid: number, fullPath: string): IssueEntity['references'] {
  return { short: `${prefix}${iid}`, relative: `${prefix}${iid}`, full: `${fullPath}${prefix}${iid}` };
}
