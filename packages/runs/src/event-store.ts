// The run's ordered transcript. Events are appended live (the UI streams them); the sequence
// number comes from the lifecycle module's per-run counter, shared with status changes, and
// everything is masked before it is stored.
import type { AgentEvent, EventSink } from "@secondshift/agent";
import type { Db, Prisma } from "@secondshift/db";
import type { SecretMasker } from "@secondshift/logging";
import { appendRunEvent } from "@secondshift/run-lifecycle";

/** Events the executor writes around the agent loop's: sandbox ready, and the recorded end. */
export type RunEventType = "run_started" | "run_finished" | "error";

export class RunEventStore implements EventSink {
  constructor(
    private readonly db: Db,
    private readonly run: { id: string; workspaceId: string },
    private readonly masker: SecretMasker,
  ) {}

  /** Agent events, and the executor's own (run_started, run_finished, error). */
  async append(
    event: AgentEvent | { type: RunEventType; payload: Record<string, unknown> },
  ): Promise<void> {
    await appendRunEvent(this.db, this.run, {
      type: event.type,
      payload: this.masker.maskValue(event.payload) as Prisma.InputJsonValue,
    });
  }
}
