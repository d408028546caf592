// What the two GitHub hooks need from the process that serves them.
import type { Keyring } from "@secondshift/crypto";
import type { WebhookHeaders } from "@secondshift/repo-sync";
import type { ReplayGuard } from "@secondshift/webhooks";
import type { EnqueueRun } from "../intake.ts";

export interface EventWebhookDeps {
  keyring: Keyring;
  replayGuard: ReplayGuard;
  /** Starts a repository sync (a push to the default branch). */
  triggerSync: (target: { workspaceId: string; repositoryId: string }) => Promise<void>;
  /** Puts a queued run on the run queue, after its transaction committed. */
  enqueueRun: EnqueueRun;
  /** Older events start nothing (default DEFAULT_MAX_EVENT_AGE_SECONDS, the replay window). */
  maxEventAgeSeconds?: number;
  /** SecondShift-Signature's tolerance on the repository hook. */
  toleranceSeconds?: number;
}

export interface WebhookResponse {
  status: number;
  message: string;
}

export interface HookInput {
  headers: WebhookHeaders;
  rawBody: Buffer;
  now?: Date;
}

export const ignored = (why: string): WebhookResponse => ({
  status: 202,
  message: `Ignored: ${why}${why.endsWith(".") ? "" : "."}`,
});

export const NOT_JSON: WebhookResponse = { status: 400, message: "The body is not JSON." };
