// The run's ordered transcript. Events are appended live (the UI polls or streams them) with a
// per-run sequence number; everything is masked before it is stored.
import type { AgentEvent, EventSink } from "@secondshift/agent";
import type { Db, Prisma } from "@secondshift/db";
import type { SecretMasker } from "@secondshift/logging";

/** Events the executor writes around the agent loop's: sandbox ready, and the recorded end. */
export type RunEventType = "run_started" | "run_finished" | "error";

export class RunEventStore implements EventSink {
  private next = 0;
  private ready: Promise<void>;

  constructor(
    private readonly db: Db,
    private readonly run: { id: string; workspaceId: string },
    private readonly masker: SecretMasker,
  ) {
    this.ready = db.runEvent
      .aggregate({ where: { runId: run.id, workspaceId: run.workspaceId }, _max: { seq: true } })
      .then((r) => {
        this.next = (r._max.seq ?? -1) + 1;
      });
  }

  /** Agent events, and the executor's own (run_started, run_finished, error). */
  async append(
    event: AgentEvent | { type: RunEventType; payload: Record<string, unknown> },
  ): Promise<void> {
    await this.ready;
    const seq = this.next++;
    await this.db.runEvent.create({
      data: {
        workspaceId: this.run.workspaceId,
        runId: this.run.id,
        seq,
        type: event.type,
        payload: this.masker.maskValue(event.payload) as Prisma.InputJsonValue,
      },
    });
  }
}
