// While a run executes: a heartbeat (so a lost worker is noticed) and a poll for anything that
// must stop it — a cancel request, or the gateway / broker having ended it (budget used,
// grant revoked). Polling every stopPollMs keeps the "cancel within 2 seconds" promise without
// any in-memory state shared between workers.
import type { Db } from "@secondshift/db";
import { heartbeat } from "@secondshift/run-lifecycle";

export interface StopWatch {
  signal: AbortSignal;
  reason(): "cancelled" | "ended_elsewhere" | null;
  close(): void;
}

export function watchRun(
  db: Db,
  run: { id: string; workspaceId: string },
  workerId: string,
  options: { heartbeatMs: number; stopPollMs: number },
): StopWatch {
  const controller = new AbortController();
  let reason: "cancelled" | "ended_elsewhere" | null = null;
  let polling = false;
  const poll = setInterval(() => {
    if (polling || controller.signal.aborted) return;
    polling = true;
    db.run
      .findFirst({
        where: { id: run.id, workspaceId: run.workspaceId },
        select: { status: true, cancelRequestedAt: true },
      })
      .then((row) => {
        if (!row) return;
        if (row.cancelRequestedAt) reason = "cancelled";
        else if (row.status !== "RUNNING") reason = "ended_elsewhere";
        if (reason) controller.abort(new Error(`run stopped: ${reason}`));
      })
      .catch(() => undefined)
      .finally(() => {
        polling = false;
      });
  }, options.stopPollMs);
  const beat = () => heartbeat(db, run, workerId).catch(() => undefined);
  void beat();
  const beating = setInterval(() => void beat(), options.heartbeatMs);
  return {
    signal: controller.signal,
    reason: () => reason,
    close() {
      clearInterval(poll);
      clearInterval(beating);
    },
  };
}
