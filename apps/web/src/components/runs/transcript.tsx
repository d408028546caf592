"use client";
// The transcript list with its connection state: live, reconnecting after a drop (the lines
// already shown stay; the rest follow once back), ended, or failed with a Reconnect button.
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ErrorState } from "../ui/states.tsx";
import { TranscriptLine } from "./transcript-event.tsx";
import type { Transcript } from "./use-transcript.ts";

const STATE_WORDS = {
  connecting: { word: "Connecting…", tone: "neutral" },
  live: { word: "Live", tone: "info" },
  reconnecting: { word: "Reconnecting…", tone: "warn" },
  ended: { word: "Transcript complete", tone: "good" },
  failed: { word: "Disconnected", tone: "bad" },
} as const;

export function TranscriptView({ transcript }: { transcript: Transcript }) {
  const { events, state, error, reconnect } = transcript;
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
      {events.length === 0 ? (
        <p className="text-sm text-slate-600">
          {state === "ended" ? "This run wrote no events." : "Waiting for the run's first event…"}
        </p>
      ) : (
        <ol
          aria-label="Transcript events"
          className="flex flex-col gap-1 rounded-lg border border-slate-200 bg-white p-4"
        >
          {events.map((entry) => (
            <TranscriptLine key={entry.seq} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}
