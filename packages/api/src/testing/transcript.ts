// A Node "browser tab" for the live run transcript: tRPC's httpSubscriptionLink over the
// `eventsource` package (Node has no EventSource), sending the browser's session cookie, and a
// collector that records every tracked event, the end of the stream, or its error.
import type { TRPCClientError } from "@trpc/client";
import { createTRPCClient, httpSubscriptionLink } from "@trpc/client";
import { EventSource } from "eventsource";
import superjson from "superjson";
import type { AppRouter } from "../root.ts";
import type { TranscriptEvent } from "../run-events/transcript.ts";

export function transcriptClient(base: string, cookies: Map<string, string>) {
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  return createTRPCClient<AppRouter>({
    links: [
      httpSubscriptionLink({
        url: base,
        transformer: superjson,
        EventSource,
        eventSourceOptions: {
          fetch: (url, init) =>
            fetch(url, { ...init, headers: { ...init.headers, cookie: cookie() } }),
        },
      }),
    ],
  });
}

export type TranscriptClient = ReturnType<typeof transcriptClient>;

export interface CollectedTranscript {
  ids: string[];
  events: TranscriptEvent[];
  /** When each event arrived (performance.now()). */
  arrivals: number[];
  /** Resolves when the server ends the stream; rejects with the subscription's error. */
  done: Promise<void>;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  unsubscribe(): void;
}

export function collectTranscript(
  client: TranscriptClient,
  input: { workspaceId: string; runId: string; lastEventId?: string | null },
): CollectedTranscript {
  const ids: string[] = [];
  const events: TranscriptEvent[] = [];
  const arrivals: number[] = [];
  let settle: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => undefined);
  const subscription = client.runs.transcript.subscribe(input, {
    onData: (data) => {
      arrivals.push(performance.now());
      ids.push(data.id);
      events.push(data.data);
    },
    onError: (error: TRPCClientError<AppRouter>) => settle?.reject(error),
    onComplete: () => settle?.resolve(),
  });
  async function waitFor(count: number, timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    while (events.length < count) {
      if (Date.now() > until) throw new Error(`got ${events.length} of ${count} events`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  return { ids, events, arrivals, done, waitFor, unsubscribe: () => subscription.unsubscribe() };
}
