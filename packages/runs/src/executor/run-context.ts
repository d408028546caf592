// Everything one run's steps share, built once when the executor picks the run up. The steps
// (prepare, agent, finalize) read it; the only thing they add is cleanups for what they acquire.
import type { Db } from "@secondshift/db";
import type { Logger, SecretMasker } from "@secondshift/logging";
import { RunEventStore } from "../event-store.ts";
import { defaultLimits, type RunExecutorDeps, type RunExecutorLimits } from "../ports.ts";
import { watchRun, type StopWatch } from "../stop-watch.ts";

export type ExecutorDeps = RunExecutorDeps & { masker: SecretMasker };

export type LoadedRun = NonNullable<Awaited<ReturnType<typeof loadRun>>>;

export interface RunScope {
  id: string;
  workspaceId: string;
}

/** Something a step acquired (sandbox, checkout) and finalizeRun must give back. */
export interface Cleanup {
  what: string;
  release(): Promise<void>;
}

export interface RunContext {
  deps: ExecutorDeps;
  run: LoadedRun;
  scope: RunScope;
  log: Logger;
  events: RunEventStore;
  /** When the run must be over: start time + the job's timeout. */
  deadline: Date;
  /** Heartbeat and stop poll; its signal is the run's abort signal. */
  watch: StopWatch;
  limits: RunExecutorLimits;
  /** Released by finalizeRun in the order they were added, whatever step failed. */
  cleanups: Cleanup[];
}

function loadRun(db: Db, runId: string) {
  return db.run.findUnique({
    where: { id: runId },
    include: { job: { include: { repository: true } }, modelProvider: true, triggerEvent: true },
  });
}

/** The context of a RUNNING run, or the status to report for a run that is not running. */
export async function openRunContext(
  deps: ExecutorDeps,
  runId: string,
): Promise<RunContext | { notRunning: LoadedRun["status"] }> {
  const run = await loadRun(deps.db, runId);
  if (!run || run.status !== "RUNNING") return { notRunning: run?.status ?? "FAILED" };
  const limits = { ...defaultLimits, ...deps.limits };
  const scope = { id: run.id, workspaceId: run.workspaceId };
  const startedAt = run.startedAt ?? new Date();
  return {
    deps,
    run,
    scope,
    log: deps.logger.child({ runId: run.id, workspaceId: run.workspaceId }),
    events: new RunEventStore(deps.db, scope, deps.masker),
    deadline: new Date(startedAt.getTime() + run.job.timeoutSeconds * 1000),
    watch: watchRun(deps.db, scope, deps.workerId, limits),
    limits,
    cleanups: [],
  };
}
