import { z } from 'zod';

/** User summary as GitLab's UserBasic entity exposes it. */
export const userSummary = z.object({
  id: z.number().int(),
  username: z.string(),
  name: z.string(),
  state: z.string(),
  locked: z.boolean(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});
export type UserSummary = z.infer<typeof userSummary>;

export const groupSummary = z.object({ id: z.number().int(), name: z.string(), web_url: z.string() });
export type GroupSummary = z.infer<typeof groupSummary>;

/** GitLab error bodies, for response validation and the OpenAPI document. */
export const messageError = z.object({ message: z.union([z.string(), z.record(z.string(), z.unknown())]) });
export const paramError = z.object({ error: z.string() });
