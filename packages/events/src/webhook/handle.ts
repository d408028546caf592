// One entry for both GitHub hooks (the web routes and the benchmark call it): a delivery to a
// repository's own hook, or to a GitHub App connection's hook.
import type { Db } from "@secondshift/db";
import { handleAppDelivery } from "./app-hook.ts";
import type { EventWebhookDeps, HookInput, WebhookResponse } from "./deps.ts";
import { handleRepositoryDelivery } from "./repository-hook.ts";

export type DeliveryTarget = { repositoryId: string } | { connectionId: string };

export function handleGitHubDelivery(
  db: Db,
  deps: EventWebhookDeps,
  input: HookInput & DeliveryTarget,
): Promise<WebhookResponse> {
  return "repositoryId" in input
    ? handleRepositoryDelivery(db, deps, input)
    : handleAppDelivery(db, deps, input);
}
