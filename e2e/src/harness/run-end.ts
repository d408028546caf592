// Waiting for the whole end of a run, not just its final status: the broker (revocation), the
// gateway (budget) or the planner (a missing grant) may mark a run final while the executor is
// still revoking its token and destroying its sandbox. The executor's own `run_finished` event
// (the one carrying the recorded status) is appended after that clean-up.
import type { Platform } from "./platform.ts";
import { waitFor, waitForFinishedRun } from "./scenario.ts";

export async function waitForRunEnd(p: Platform, runId: string, timeoutMs = 180_000) {
  await waitForFinishedRun(p, { id: runId }, timeoutMs);
  await waitFor(
    "the executor's run_finished event",
    async () => {
      const events = await p.t.db.runEvent.findMany({ where: { runId, type: "run_finished" } });
      return events.some(
        (e) => typeof (e.payload as { status?: unknown } | null)?.status === "string",
      );
    },
    timeoutMs,
  );
  return p.t.db.run.findUniqueOrThrow({ where: { id: runId } });
}
