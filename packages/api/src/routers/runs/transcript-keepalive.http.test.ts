// An idle live transcript is kept open: the server sends SSE pings while no run event arrives,
// so a reverse proxy's idle timeout does not cut a run that is thinking quietly, and it tells
// the client after how long a silent stream counts as dead (the client then reconnects).
import { createUser } from "@secondshift/accounts/testing";
import {
  createTestDatabase,
  seedRun,
  seedWorkspace,
  type TestDatabase,
} from "@secondshift/db/testing";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRunEventListener, type RunEventListener } from "../../run-events/listener.ts";
import { startTestApi, type TestApi } from "../../testing/index.ts";
import { SSE_CLIENT_RECONNECT_AFTER_MS, SSE_PING_INTERVAL_MS } from "../../trpc.ts";

let t: TestDatabase;
let api: TestApi;
let listener: RunEventListener;
const password = "keepalive passphrase 0123";

beforeAll(async () => {
  t = await createTestDatabase();
  listener = await startRunEventListener({
    connectionString: t.url,
    logger: createLogger({ name: "listener-test", destination: createMemorySink().stream }),
  });
  api = await startTestApi(t.db, { runEvents: listener });
});
afterAll(async () => {
  await api?.close();
  await listener?.close();
  await t?.drop();
});

describe("runs.transcript keep-alive", () => {
  it(
    "an idle subscription receives pings, and is told when to reconnect",
    async () => {
      const seed = await seedWorkspace(t.db, { name: "idle" });
      const viewer = await createUser(t.db, password, {
        workspaceId: seed.workspaceId,
        role: "VIEWER",
      });
      const browser = api.browser();
      await browser.trpc.auth.signIn.mutate({ email: viewer.email, password });
      const run = await seedRun(t.db, seed, { status: "RUNNING" });
      const input = encodeURIComponent(
        JSON.stringify({ json: { workspaceId: seed.workspaceId, runId: run.id } }),
      );
      const abort = new AbortController();
      // Plain fetch: the test browser reads every body to its end, and this one never ends.
      const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const response = await fetch(`${api.base}/runs.transcript?input=${input}`, {
        headers: { accept: "text/event-stream", cookie },
        signal: abort.signal,
      });
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      const started = performance.now();
      const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      const decoder = new TextDecoder();
      let text = "";
      while (!text.includes("event: ping")) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      const waited = performance.now() - started;
      abort.abort();
      expect(text).toContain("event: ping");
      // No run event was written: the ping came from the keep-alive, about one interval in.
      expect(text).not.toContain("id: ");
      expect(waited).toBeGreaterThan(SSE_PING_INTERVAL_MS * 0.8);
      expect(text).toContain(`"reconnectAfterInactivityMs":${SSE_CLIENT_RECONNECT_AFTER_MS}`);
    },
    SSE_PING_INTERVAL_MS + 10_000,
  );
});
