// The GitHub App hook (/webhooks/github-app/<connectionId>), signed with the App connection's
// webhook secret (Connection.webhookSecretCiphertext). A delivery counts only for the
// connection's own installation, and only for a repository of the connection's workspace
// bound to this connection, found by the payload's `repository.full_name`: an App installed
// elsewhere, or a repository of another workspace, starts nothing.
import { decryptField } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import {
  REPLAYED,
  SECRET_UNREADABLE,
  syncOnPush,
  UNAUTHORIZED,
  webhookHeader,
} from "@secondshift/repo-sync";
import { verifyGitHubSignature } from "@secondshift/webhooks";
import { readJson } from "../deliveries/parse.ts";
import { numericId, object } from "../deliveries/shape.ts";
import { isEventName } from "../deliveries/types.ts";
import {
  ignored,
  NOT_JSON,
  type EventWebhookDeps,
  type HookInput,
  type WebhookResponse,
} from "./deps.ts";
import { routingOf } from "./routing.ts";
import { takeEvent } from "./take-event.ts";

const NO_HOOK: WebhookResponse = { status: 404, message: "No such GitHub App webhook." };
export const OTHER_INSTALLATION: WebhookResponse = {
  status: 403,
  message: "This delivery is for another installation of the App; nothing was started.",
};
export const UNBOUND_REPOSITORY: WebhookResponse = {
  status: 404,
  message:
    "No repository of this workspace is bound to this App connection under the delivery's repository name; nothing was started.",
};

interface AppConnection {
  id: string;
  workspaceId: string;
  installationId: string | null;
}

/** The App connection and its verified, first-seen delivery; or the answer that ends it. */
async function verifyAppDelivery(
  db: Db,
  deps: EventWebhookDeps,
  input: HookInput & { connectionId: string },
  now: Date,
): Promise<{ ok: true; connection: AppConnection } | { ok: false; response: WebhookResponse }> {
  const row = await db.connection.findFirst({
    where: { id: input.connectionId, kind: "GITHUB", authType: "GITHUB_APP", deletedAt: null },
    select: { id: true, workspaceId: true, settings: true, webhookSecretCiphertext: true },
  });
  if (row === null || row.webhookSecretCiphertext === null) return { ok: false, response: NO_HOOK };
  let secret: string;
  try {
    secret = await decryptField(deps.keyring, row.webhookSecretCiphertext, {
      workspaceId: row.workspaceId,
      table: "Connection",
      rowId: row.id,
      field: "webhookSecretCiphertext",
    });
  } catch {
    return { ok: false, response: SECRET_UNREADABLE };
  }
  const signature = webhookHeader(input.headers, "X-Hub-Signature-256");
  const verified = verifyGitHubSignature(signature, input.rawBody, secret);
  if (!verified.ok) return { ok: false, response: UNAUTHORIZED };
  const delivery = { key: `${row.id}:${verified.signature}`, workspaceId: row.workspaceId };
  if (!(await deps.replayGuard.firstUse(delivery, now))) return { ok: false, response: REPLAYED };
  const installationId = numericId(object(row.settings)?.installationId) ?? null;
  return { ok: true, connection: { id: row.id, workspaceId: row.workspaceId, installationId } };
}

function boundRepository(db: Db, connection: AppConnection, fullName: string) {
  return db.repository.findFirst({
    where: {
      workspaceId: connection.workspaceId,
      connectionId: connection.id,
      fullName: { equals: fullName, mode: "insensitive" },
    },
    select: { id: true, workspaceId: true, defaultBranch: true },
    orderBy: { createdAt: "asc" },
  });
}

export async function handleAppDelivery(
  db: Db,
  deps: EventWebhookDeps,
  input: HookInput & { connectionId: string },
): Promise<WebhookResponse> {
  const now = input.now ?? new Date();
  const checked = await verifyAppDelivery(db, deps, input, now);
  if (!checked.ok) return checked.response;
  const { connection } = checked;
  const event = webhookHeader(input.headers, "X-GitHub-Event");
  if (event === "ping") return { status: 200, message: "pong" };
  if (event !== "push" && !isEventName(event))
    return ignored(`${(event ?? "unnamed").slice(0, 60)} deliveries start nothing`);
  const payload = readJson(input.rawBody);
  if (payload === undefined) return NOT_JSON;
  const routing = routingOf(payload);
  if (connection.installationId === null || routing.installationId !== connection.installationId)
    return OTHER_INSTALLATION;
  if (routing.repositoryFullName === null) return ignored("the delivery names no repository");
  const repository = await boundRepository(db, connection, routing.repositoryFullName);
  if (repository === null) return UNBOUND_REPOSITORY;
  if (event === "push") return syncOnPush(db, deps, repository, input.rawBody, now);
  return takeEvent(db, deps, { repository, event, headers: input.headers, payload, now });
}
