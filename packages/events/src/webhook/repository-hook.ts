// The per-repository hook (/webhooks/repositories/<id>/push), signed with that repository's
// own secret: pushes start a sync as before; pull_request, issues and issue_comment deliveries
// go to the intake, after the same signature and replay checks, and only when the payload
// names this repository (a secret belongs to one repository) and the repository comes from
// GitHub through a GitHub connection (events are GitHub's).
import type { Db } from "@secondshift/db";
import {
  syncOnPush,
  verifyRepositoryDelivery,
  webhookHeader,
  type WebhookRepository,
} from "@secondshift/repo-sync";
import { EVENTS_NOT_GITHUB_REASON } from "@secondshift/vocabulary";
import { readJson } from "../deliveries/parse.ts";
import { isEventName } from "../deliveries/types.ts";
import {
  ignored,
  NOT_JSON,
  type EventWebhookDeps,
  type HookInput,
  type WebhookResponse,
} from "./deps.ts";
import { routingOf, sameRepository } from "./routing.ts";
import { takeEvent } from "./take-event.ts";

export const OTHER_REPOSITORY: WebhookResponse = {
  status: 403,
  message: "This delivery names another repository; nothing was started.",
};

async function fetchedFromGitHub(db: Db, repository: WebhookRepository): Promise<boolean> {
  if (repository.connectionId === null) return false;
  const connection = await db.connection.findFirst({
    where: { id: repository.connectionId, workspaceId: repository.workspaceId, deletedAt: null },
    select: { kind: true },
  });
  return connection?.kind === "GITHUB";
}

export async function handleRepositoryDelivery(
  db: Db,
  deps: EventWebhookDeps,
  input: HookInput & { repositoryId: string },
): Promise<WebhookResponse> {
  const checked = await verifyRepositoryDelivery(db, deps, input);
  if (!checked.ok) return checked.response;
  const { repository } = checked;
  const now = input.now ?? new Date();
  const event = webhookHeader(input.headers, "X-GitHub-Event");
  if (event === "ping") return { status: 200, message: "pong" };
  if (event === undefined || event === "push")
    return syncOnPush(db, deps, repository, input.rawBody, now);
  if (!isEventName(event)) return ignored(`${event.slice(0, 60)} deliveries start nothing`);
  const payload = readJson(input.rawBody);
  if (payload === undefined) return NOT_JSON;
  if (!sameRepository(routingOf(payload).repositoryFullName, repository.fullName))
    return OTHER_REPOSITORY;
  if (!(await fetchedFromGitHub(db, repository))) return ignored(EVENTS_NOT_GITHUB_REASON);
  return takeEvent(db, deps, { repository, event, headers: input.headers, payload, now });
}
