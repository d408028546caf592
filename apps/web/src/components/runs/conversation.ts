// The transcript read as a conversation: a text the page already shows is not shown again. The
// final answer comes three times (the model's last turn, the final_answer event and the run's
// summary under Result) and a failure's error up to five (the error event, agent_finished,
// the status and run_finished events, and the run's error in its summary): the run summary
// shows each once, and a transcript line repeating it says where it is instead.
import type { ReadTranscriptEvent } from "@secondshift/vocabulary";
import type { TranscriptEntry } from "./use-transcript.ts";

/** Where a line's text is already shown: the run summary's Result or error, or an earlier line. */
export type Repeat = "result" | "error" | "earlier";

export interface TranscriptRow {
  entry: TranscriptEntry;
  repeats: Repeat | null;
}

/** The one text of an event that other events or the run summary may repeat. */
function spokenText(event: ReadTranscriptEvent): string | null {
  switch (event.type) {
    case "model_turn":
      return event.payload.text || null;
    case "final_answer":
      return event.payload.summary;
    case "error":
      return event.payload.message;
    case "status":
    case "agent_finished":
    case "run_finished":
      return event.payload.error ?? null;
    default:
      return null;
  }
}

export function conversationRows(
  entries: TranscriptEntry[],
  shownAbove: { summary: string | null; error: string | null },
): TranscriptRow[] {
  const said = new Map<string, Repeat>();
  if (shownAbove.summary?.trim()) said.set(shownAbove.summary.trim(), "result");
  if (shownAbove.error?.trim()) said.set(shownAbove.error.trim(), "error");
  return entries.map((entry) => {
    const text = spokenText(entry.event)?.trim();
    if (!text) return { entry, repeats: null };
    const repeats = said.get(text) ?? null;
    if (repeats === null) said.set(text, "earlier");
    return { entry, repeats };
  });
}
