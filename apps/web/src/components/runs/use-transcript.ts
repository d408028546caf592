"use client";
// The live tail of one run's transcript: the events written after `afterSeq` (the newest seq
// the paged history holds — useTranscriptHistory — so nothing already shown is sent again),
// each as it is written, over SSE (tRPC's httpSubscriptionLink). After a dropped connection
// the browser's EventSource reconnects on its own and sends Last-Event-ID (the last event's
// seq); the server continues after it. An event is kept only when its seq is past the last one
// kept, so a resend can never show a line twice. A failed stream (not retried by tRPC) is
// reopened with Reconnect, from the last seq held.
import { readTranscriptEvent, type ReadTranscriptEvent } from "@secondshift/vocabulary";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPCClient } from "../../trpc/react.tsx";
import { errorMessage } from "../ui/error-message.ts";

/**
 * One run event as the API streams it (payload masked by its writer, untrusted), read once on
 * arrival with the vocabulary's schema: its type's payload, or `other` for one this version
 * does not know.
 */
export interface TranscriptEntry {
  seq: number;
  createdAt: Date;
  event: ReadTranscriptEvent;
}

export type StreamState = "connecting" | "live" | "reconnecting" | "ended" | "failed";

export interface Transcript {
  /** The events after `afterSeq`, in seq order. */
  events: TranscriptEntry[];
  state: StreamState;
  error: string | null;
  reconnect: () => void;
}

export function useTranscript(
  input: { workspaceId: string; runId: string; afterSeq: number },
  onEvent?: (entry: TranscriptEntry) => void,
): Transcript {
  const client = useTRPCClient();
  const [events, setEvents] = useState<TranscriptEntry[]>([]);
  const [state, setState] = useState<StreamState>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // Where the tail starts: read once, so a later history page cannot move it.
  const lastSeq = useRef(input.afterSeq);
  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  const { workspaceId, runId } = input;

  useEffect(() => {
    const from = lastSeq.current;
    // Callbacks of a subscription this effect already closed are ignored.
    let closed = false;
    const subscription = client.runs.transcript.subscribe(
      { workspaceId, runId, lastEventId: from < 0 ? null : String(from) },
      {
        onStarted: () => !closed && setState("live"),
        onData: ({ data }) => {
          if (closed || data.seq <= lastSeq.current) return;
          lastSeq.current = data.seq;
          const entry = {
            seq: data.seq,
            createdAt: data.createdAt,
            event: readTranscriptEvent(data.type, data.payload),
          };
          setEvents((prev) => [...prev, entry]);
          onEventRef.current?.(entry);
        },
        onConnectionStateChange: (s) => {
          if (closed) return;
          if (s.state === "connecting" && s.error) setState("reconnecting");
          if (s.state === "pending") setState("live");
        },
        onError: (e) => {
          if (closed) return;
          setError(errorMessage(e));
          setState("failed");
        },
        onComplete: () => !closed && setState((s) => (s === "failed" ? s : "ended")),
      },
    );
    return () => {
      closed = true;
      subscription.unsubscribe();
    };
  }, [client, workspaceId, runId, attempt]);

  const reconnect = useCallback(() => {
    setError(null);
    setState("connecting");
    setAttempt((n) => n + 1);
  }, []);

  return { events, state, error, reconnect };
}
