// The run's ordered transcript. Events are appended live (the UI polls or streams them) with a
// per-run sequence number; everything is masked before it is stored.
import type { AgentEvent, EventSink } from "@secondshift/agent";
import type { Db, Prisma } from "@secondshift/db";
import type { SecretMasker } from "@secondshift/logging";

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

  async append(event: AgentEvent): Promise<void> {
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
