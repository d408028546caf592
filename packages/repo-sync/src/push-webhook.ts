// Inbound push webhooks (P08): the repository's host calls us on every push, signed with the
// repository's webhook secret. We accept SecondShift's timestamped signature (replay window)
// or GitHub's X-Hub-Signature-256; both are compared in constant time, and a signature seen
// before is refused (replay guard). Only then is a sync triggered — the body is never trusted
// for anything but "which branch": the sync itself reads the repository, not the payload.
import { decryptField, type Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import {
  DEFAULT_TOLERANCE_SECONDS,
  verifyGitHubSignature,
  verifySignature,
  type ReplayGuard,
} from "@secondshift/webhooks";

export interface PushWebhookDeps {
  keyring: Keyring;
  replayGuard: ReplayGuard;
  /** Starts a sync (enqueue a job, or call syncRepository); awaited before answering. */
  triggerSync: (target: { workspaceId: string; repositoryId: string }) => Promise<void>;
  toleranceSeconds?: number;
}

export interface PushWebhookResponse {
  status: number;
  message: string;
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** A request header by name, case-insensitively (the first value when repeated). */
export function webhookHeader(headers: WebhookHeaders, name: string): string | undefined {
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase());
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/** The pushed branch, if the payload names one (GitHub / GitLab / Gitea: `ref`). */
function pushedBranch(rawBody: Buffer): string | undefined {
  try {
    const ref = (JSON.parse(rawBody.toString("utf8")) as { ref?: unknown }).ref;
    return typeof ref === "string" && ref.startsWith("refs/heads/")
      ? ref.slice("refs/heads/".length)
      : undefined;
  } catch {
    return undefined;
  }
}

export const UNAUTHORIZED: PushWebhookResponse = {
  status: 401,
  message: "Signature missing, invalid or expired.",
};
const NOT_FOUND: PushWebhookResponse = { status: 404, message: "No such repository webhook." };
export const REPLAYED: PushWebhookResponse = {
  status: 409,
  message: "This delivery was already received.",
};
export const SECRET_UNREADABLE: PushWebhookResponse = {
  status: 500,
  message: "The webhook secret could not be read; the operator must check the encryption key.",
};

/** The repository a verified delivery is for. */
export interface WebhookRepository {
  id: string;
  workspaceId: string;
  fullName: string;
  defaultBranch: string;
  connectionId: string | null;
}

export type RepositoryDeliveryCheck =
  { ok: true; repository: WebhookRepository } | { ok: false; response: PushWebhookResponse };

export interface DeliveryInput {
  repositoryId: string;
  headers: WebhookHeaders;
  rawBody: Buffer;
  now?: Date;
}

/**
 * A delivery to a repository's own hook, authenticated: the repository exists and has a
 * secret, the signature (ours, timestamped, or GitHub's) verifies with it, and it is the
 * first use of that signature (replay guard). Nothing else about the body is checked here.
 */
export async function verifyRepositoryDelivery(
  db: Db,
  deps: Pick<PushWebhookDeps, "keyring" | "replayGuard" | "toleranceSeconds">,
  input: DeliveryInput,
): Promise<RepositoryDeliveryCheck> {
  // Looked up by id alone: the caller is the repository host, not a member of a workspace.
  // The signature with that repository's own secret is what authenticates the request.
  const repository = await db.repository.findUnique({
    where: { id: input.repositoryId },
    select: {
      id: true,
      workspaceId: true,
      fullName: true,
      defaultBranch: true,
      connectionId: true,
      webhookSecretCiphertext: true,
    },
  });
  // Unknown repository and "no webhook secret set" look the same from outside.
  if (repository === null || repository.webhookSecretCiphertext === null)
    return { ok: false, response: NOT_FOUND };
  const { webhookSecretCiphertext, ...found } = repository;
  let secret: string;
  try {
    secret = await decryptField(deps.keyring, webhookSecretCiphertext, {
      workspaceId: repository.workspaceId,
      table: "Repository",
      rowId: repository.id,
      field: "webhookSecretCiphertext",
    });
  } catch {
    return { ok: false, response: SECRET_UNREADABLE };
  }
  const now = input.now ?? new Date();
  const ours = webhookHeader(input.headers, "SecondShift-Signature");
  const verified =
    ours !== undefined
      ? verifySignature(ours, input.rawBody, secret, {
          now,
          toleranceSeconds: deps.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
        })
      : verifyGitHubSignature(
          webhookHeader(input.headers, "X-Hub-Signature-256"),
          input.rawBody,
          secret,
        );
  if (!verified.ok) return { ok: false, response: UNAUTHORIZED };
  // Key on the repository too: the same body signed for two repositories is two deliveries.
  const delivery = {
    key: `${repository.id}:${verified.signature}`,
    workspaceId: repository.workspaceId,
  };
  if (!(await deps.replayGuard.firstUse(delivery, now))) return { ok: false, response: REPLAYED };
  return { ok: true, repository: found };
}

/**
 * A verified push: a sync of the repository when it names the default branch (or no branch);
 * the body is trusted for nothing else, the sync reads the repository itself.
 */
export async function syncOnPush(
  db: Db,
  deps: Pick<PushWebhookDeps, "triggerSync">,
  repository: Pick<WebhookRepository, "id" | "workspaceId" | "defaultBranch">,
  rawBody: Buffer,
  now: Date,
): Promise<PushWebhookResponse> {
  const branch = pushedBranch(rawBody);
  if (branch !== undefined && branch !== repository.defaultBranch) {
    return {
      status: 202,
      message: `Push to ${branch} ignored; only ${repository.defaultBranch} is synced.`,
    };
  }
  // Marked as requested, as "Sync now" does: the repositories screen follows it until it ends.
  await db.repository.update({ where: { id: repository.id }, data: { syncRequestedAt: now } });
  await deps.triggerSync({ workspaceId: repository.workspaceId, repositoryId: repository.id });
  return { status: 202, message: "Sync started." };
}

/**
 * A repository hook that only syncs: pushes (and deliveries without X-GitHub-Event, from
 * other hosts) start a sync; any other GitHub event starts nothing here (a pull request never
 * starts a sync). @secondshift/events takes the event deliveries on the same route.
 */
export async function handlePushWebhook(
  db: Db,
  deps: PushWebhookDeps,
  input: DeliveryInput,
): Promise<PushWebhookResponse> {
  const checked = await verifyRepositoryDelivery(db, deps, input);
  if (!checked.ok) return checked.response;
  const event = webhookHeader(input.headers, "X-GitHub-Event");
  if (event === "ping") return { status: 200, message: "pong" };
  if (event !== undefined && event !== "push")
    return { status: 202, message: "Ignored: only push deliveries start a sync." };
  return syncOnPush(db, deps, checked.repository, input.rawBody, input.now ?? new Date());
}
