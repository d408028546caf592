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

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
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

const UNAUTHORIZED: PushWebhookResponse = {
  status: 401,
  message: "Signature missing, invalid or expired.",
};
const NOT_FOUND: PushWebhookResponse = { status: 404, message: "No such repository webhook." };

export async function handlePushWebhook(
  db: Db,
  deps: PushWebhookDeps,
  input: { repositoryId: string; headers: Headers; rawBody: Buffer; now?: Date },
): Promise<PushWebhookResponse> {
  // Looked up by id alone: the caller is the repository host, not a member of a workspace.
  // The signature with that repository's own secret is what authenticates the request.
  const repository = await db.repository.findUnique({
    where: { id: input.repositoryId },
    select: { id: true, workspaceId: true, defaultBranch: true, webhookSecretCiphertext: true },
  });
  // Unknown repository and "no webhook secret set" look the same from outside.
  if (repository === null || repository.webhookSecretCiphertext === null) return NOT_FOUND;
  let secret: string;
  try {
    secret = await decryptField(deps.keyring, repository.webhookSecretCiphertext, {
      workspaceId: repository.workspaceId,
      table: "Repository",
      rowId: repository.id,
      field: "webhookSecretCiphertext",
    });
  } catch {
    return {
      status: 500,
      message: "The webhook secret could not be read; the operator must check the encryption key.",
    };
  }
  const now = input.now ?? new Date();
  const ours = header(input.headers, "SecondShift-Signature");
  const verified =
    ours !== undefined
      ? verifySignature(ours, input.rawBody, secret, {
          now,
          toleranceSeconds: deps.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
        })
      : verifyGitHubSignature(header(input.headers, "X-Hub-Signature-256"), input.rawBody, secret);
  if (!verified.ok) return UNAUTHORIZED;
  // Key on the repository too: the same body signed for two repositories is two deliveries.
  const delivery = {
    key: `${repository.id}:${verified.signature}`,
    workspaceId: repository.workspaceId,
  };
  if (!(await deps.replayGuard.firstUse(delivery, now))) {
    return { status: 409, message: "This delivery was already received." };
  }
  if (header(input.headers, "X-GitHub-Event") === "ping") return { status: 200, message: "pong" };
  const branch = pushedBranch(input.rawBody);
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
