// Output fields shared by the connection procedures: never a credential, a ciphertext or an
// OAuth token — only what the owner chose and what discovery found.
import { z } from "zod";

export const connectionTool = z.object({
  name: z.string(),
  description: z.string().nullable(),
  mayChangeData: z.boolean(),
  allowed: z.boolean(),
});

/** Set when the OAuth server refused a refresh: the owner must reconnect. */
export const reconnect = z.object({ since: z.date(), message: z.string() }).nullable();

export const affectedJob = z.object({
  jobId: z.string(),
  key: z.string(),
  name: z.string(),
  repositoryId: z.string(),
  grantId: z.string(),
});
