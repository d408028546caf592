// The run's transcript as it happens. Every event is masked (P02) before the sink sees it, so a
// secret that shows up in model text, tool arguments, tool output or an error message is never
// stored or streamed to the UI.
import type { SecretMasker } from "@secondshift/logging";
import type { TranscriptPayload } from "@secondshift/vocabulary";
import type { AgentEvent, AgentEventType, EventSink } from "./types.ts";

export class Transcript {
  constructor(
    private readonly sink: EventSink,
    private readonly masker: SecretMasker,
  ) {}

  async append<T extends AgentEventType>(type: T, payload: TranscriptPayload<T>): Promise<void> {
    // Masking keeps the payload's shape; TypeScript cannot pair a generic type with its payload.
    const event = { type, payload: this.masker.maskValue(payload) } as AgentEvent;
    await this.sink.append(event);
  }

  /** For the last events of a run: a failing store must not hide the run's outcome. */
  async appendQuietly<T extends AgentEventType>(
    type: T,
    payload: TranscriptPayload<T>,
  ): Promise<void> {
    try {
      await this.append(type, payload);
    } catch {
      // The outcome is still returned to the worker, which records it on the run row.
    }
  }
}
