"use client";
// The transcript with its connection state: live, reconnecting after a drop (the lines
// already shown stay; the rest follow once back), ended, or failed with a Reconnect button.
// Its lines are the paged history (older pages on scroll) followed by the live tail, read as a
// conversation (conversation.ts: what the run summary shows is not repeated).
import { useMemo } from "react";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ErrorState } from "../ui/states.tsx";
import { conversationRows } from "./conversation.ts";
import { TranscriptList } from "./transcript-list.tsx";
import type { Transcript } from "./use-transcript.ts";
import type { TranscriptHistory } from "./use-transcript-history.ts";

const STATE_WORDS = {
  connecting: { word: "Connecting…", tone: "neutral" },
  live: { word: "Live", tone: "info" },
  reconnecting: { word: "Reconnecting…", tone: "warn" },
  ended: { word: "Transcript complete", tone: "good" },
  failed: { word: "Disconnected", tone: "bad" },
} as const;

export function TranscriptView(props: {
  history: TranscriptHistory;
  transcript: Transcript;
  /** What the run summary shows (the final answer, the error): not repeated in the lines. */
  shownAbove: { summary: string | null; error: string | null };
}) {
  const { history, transcript } = props;
  const { state, error, reconnect } = transcript;
  const { summary, error: runError } = props.shownAbove;
  const rows = useMemo(
    () => conversationRows([...history.events, ...transcript.events], { summary, error: runError }),
    [history.events, transcript.events, summary, runError],
  );
  const words = STATE_WORDS[state];
  return (
    <section aria-labelledby="transcript-heading" className="flex flex-col gap-3">
      <div className="flex items-center gap-3">
        <h2 id="transcript-heading" className="text-base font-semibold text-slate-900">
          Transcript
        </h2>
        <span role="status" aria-live="polite" data-testid="stream-state">
          <Badge tone={words.tone}>{words.word}</Badge>
        </span>
      </div>
      {state === "failed" ? (
        <ErrorState
          title="The live transcript stopped"
          message={error ?? "The connection failed."}
          action={<Button onClick={reconnect}>Reconnect</Button>}
        />
      ) : null}
      {history.hasOlder ? (
        <p className="text-xs text-slate-600" role="status">
          {history.loadingOlder
            ? "Loading older events…"
            : "Showing the latest events; scroll up for older ones."}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">
          {state === "ended" ? "This run wrote no events." : "Waiting for the run's first event…"}
        </p>
      ) : (
        <TranscriptList rows={rows} hasOlder={history.hasOlder} loadOlder={history.loadOlder} />
      )}
    </section>
  );
}
