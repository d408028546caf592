// npm run bench:api — the owner API at the scale. Prints:
// - runs.list and audit.list over HTTP with 10,000 runs and 100,000 audit events in one
//   workspace (first page, a deep cursor page, a filtered page): p50 / p95;
// - a run event's insert → subscribed client latency for 1, 10 and 50 clients: p50 / p95.
// Targets: lists p50 ≤ 50 ms; transcript p95 ≤ 100 ms. Needs TEST_DATABASE_URL (a throwaway
// PostgreSQL), like the tests. Settings: BENCH_API_EVENTS (300 per client count),
// BENCH_API_RATE (events per second, 50), BENCH_API_CLIENTS (1,10,50).
import { createLogger } from "@secondshift/logging";
// Not "@secondshift/db/testing": its index also exports Vitest fixtures, which refuse to load
// outside Vitest.
import { createTestDatabase } from "../../db/src/testing/test-database.ts";
import { startRunEventListener } from "../src/run-events/listener.ts";
import { startTestApi } from "../src/testing/index.ts";
import { ms } from "./figures.ts";
import { AUDIT_EVENTS, benchLists, RUNS } from "./lists.ts";
import { benchTranscript } from "./transcript.ts";

const EVENTS = Number(process.env.BENCH_API_EVENTS ?? 300);
const RATE = Number(process.env.BENCH_API_RATE ?? 50);
const CLIENTS = (process.env.BENCH_API_CLIENTS ?? "1,10,50").split(",").map(Number);

const t = await createTestDatabase({ maxConnections: 10 });
const logger = createLogger({ name: "bench", level: "warn" });
const listener = await startRunEventListener({ connectionString: t.url, logger });
const api = await startTestApi(t.db, {
  runEvents: listener,
  limits: { maxPerAccount: 1000, maxPerAddress: 1000 },
});
try {
  console.log(`lists: ${RUNS} runs, ${AUDIT_EVENTS} audit events in one workspace; 50 rows a page`);
  for (const f of await benchLists(t.db, api)) {
    const verdict = f.p50 <= 50 ? "met" : "NOT met";
    console.log(
      `  ${f.name.padEnd(36)} ${String(f.rows).padStart(3)} rows  p50 ${ms(f.p50)}  p95 ${ms(f.p95)}  (p50 ≤ 50 ms: ${verdict})`,
    );
  }
  console.log(`transcript: ${EVENTS} events at ${RATE}/s per client count`);
  for (const clients of CLIENTS) {
    const f = await benchTranscript(t.db, api, { clients, events: EVENTS, rate: RATE });
    const verdict = f.p95 <= 100 ? "met" : "NOT met";
    console.log(
      `  ${String(clients).padStart(2)} clients: ${f.deliveries} deliveries, complete ${f.complete}/${clients}, ` +
        `p50 ${ms(f.p50)}, p95 ${ms(f.p95)}, p99 ${ms(f.p99)}, max ${ms(f.max)} (p95 ≤ 100 ms: ${verdict})`,
    );
  }
} finally {
  await api.close();
  await listener.close();
  await t.drop();
}
