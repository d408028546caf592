// The run's ordered transcript. Events are appended live (the UI streams them); the sequence
// number comes from the lifecycle module's per-run counter, shared with status changes, and
// everything is masked before it is stored. Event names and payloads are the vocabulary's.
import type { AgentEvent, EventSink } from "@secondshift/agent";
import type { Db, Prisma } from "@secondshift/db";
import type { SecretMasker } from "@secondshift/logging";
import { appendRunEvent } from "@secondshift/run-lifecycle";
import type { ExecutorEventType, TranscriptEventOf } from "@secondshift/vocabulary";

/** Events the executor writes around the agent loop's: sandbox ready, a failed step, the end. */
export type ExecutorEvent = { [T in ExecutorEventType]: TranscriptEventOf<T> }[ExecutorEventType];

export class RunEventStore implements EventSink {
  constructor(
    private readonly db: Db,
    private readonly run: { id: string; workspaceId: string },
    private readonly masker: SecretMasker,
  ) {}

  /** Agent events, and the executor's own (run_started, run_finished, error). */
  async append(event: AgentEvent | ExecutorEvent): Promise<void> {
    await appendRunEvent(this.db, this.run, {
      type: event.type,
      payload: this.masker.maskValue(event.payload) as Prisma.InputJsonValue,
    });
  }
}
