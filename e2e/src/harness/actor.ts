// A user acting in a workspace through the domain layer, wired to this platform's queues and
// keyring exactly as the web app wires it.
import type { ActorContext } from "@secondshift/domain";
import { createWorkspaceServices } from "@secondshift/scheduler";
import type { Platform } from "./platform.ts";

export function actAs(p: Platform, workspaceId: string, userId: string): ActorContext {
  return {
    db: p.t.db,
    actor: { userId },
    workspaceId,
    keyring: p.keyring,
    services: createWorkspaceServices({
      db: p.t.db,
      runQueue: p.worker.runQueue,
      scheduleQueue: p.worker.scheduleQueue,
      syncQueue: p.worker.syncQueue,
      outputQueue: p.worker.outputQueue,
      logger: p.logger,
    }),
  };
}
