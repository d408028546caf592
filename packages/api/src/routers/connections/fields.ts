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

/** A GitHub App connection's webhook: the URL to paste and whether a secret is set. */
export const appWebhook = z.object({ url: z.string(), secretSet: z.boolean() }).nullable();

/** The domain's webhook path on this server's public URL. */
export const withWebhookUrl = <T extends { webhook: { path: string; secretSet: boolean } | null }>(
  connection: T,
  publicUrl: string,
) => ({
  ...connection,
  webhook: connection.webhook && {
    url: new URL(connection.webhook.path, publicUrl).toString(),
    secretSet: connection.webhook.secretSet,
  },
});
