// The browsers of bench/transcript.ts, in their own process (so their SSE parsing does not
// share the server's event loop): N subscriptions to one run's transcript with the given
// session cookie. Prints "ready" once each has its first event, then, when every stream has
// ended, one JSON line: per client, each event's seq and arrival time (epoch milliseconds).
import { collectTranscript, transcriptClient } from "../src/testing/transcript.ts";

const args = JSON.parse(process.argv[2] ?? "{}") as {
  base: string;
  cookie: [string, string];
  workspaceId: string;
  runId: string;
  clients: number;
};
const cookies = new Map([args.cookie]);
const watchers = Array.from({ length: args.clients }, () =>
  collectTranscript(transcriptClient(args.base, cookies), {
    workspaceId: args.workspaceId,
    runId: args.runId,
  }),
);
await Promise.all(watchers.map((w) => w.waitFor(1, 60_000)));
console.log("ready");
await Promise.all(watchers.map((w) => w.done));
console.log(
  JSON.stringify(
    watchers.map((w) => ({
      seqs: w.events.map((e) => e.seq),
      arrivals: w.arrivals.map((at) => performance.timeOrigin + at),
    })),
  ),
);
