// The run queue's check of an event run before it is claimed (E03): the actor's permission on
// the repository, read from GitHub with the repository's own credential (a minted read-only
// installation token, revoked after) through the worker's outbound client.
import { outboundFromNetguard } from "@secondshift/connectors";
import { createEventGithub, screenEventRun } from "@secondshift/runs";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";
import type { ToolBroker } from "./tool-broker.ts";

export function buildEventScreen(
  settings: WorkerSettings,
  services: WorkerServices,
  tools: Pick<ToolBroker, "client" | "mintInstallationToken">,
) {
  const github = createEventGithub({
    keyring: settings.keyring,
    fetch: outboundFromNetguard(tools.client),
    mintInstallationToken: tools.mintInstallationToken,
    userAgent: "secondshift/0.1.0",
  });
  const deps = { db: services.db, github, logger: services.logger };
  return (run: { id: string; workspaceId: string }) => screenEventRun(deps, run);
}
