// An idle live transcript is kept open: the server sends SSE pings while no run event arrives,
// so a reverse proxy's idle timeout does not cut a run that is thinking quietly, and it tells
// the client after how long a silent stream counts as dead (the client then reconnects).
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { describe, expect } from "vitest";
import { startRunEventListener } from "../../run-events/listener.ts";
import { startTestApi } from "../../testing/index.ts";
import { SSE_CLIENT_RECONNECT_AFTER_MS, SSE_PING_INTERVAL_MS } from "../../trpc.ts";

const password = "keepalive passphrase 0123";

const test = dbTest
  .extend("listener", { scope: "file" }, async ({ testDatabase }, { onCleanup }) => {
    const listener = await startRunEventListener({
      connectionString: testDatabase.url,
      logger: createLogger({ name: "listener-test", destination: createMemorySink().stream }),
    });
    onCleanup(() => listener.close());
    return listener;
  })
  .extend("api", { scope: "file" }, async ({ db, listener }, { onCleanup }) => {
    const api = await startTestApi(db, { runEvents: listener });
    onCleanup(() => api.close());
    return api;
  });

describe("runs.transcript keep-alive", () => {
  test(
    "an idle subscription receives pings, and is told when to reconnect",
    async ({ db, api }) => {
      const seed = await seedWorkspace(db, { name: "idle" });
      const viewer = await createUser(db, password, {
        workspaceId: seed.workspaceId,
        role: "VIEWER",
      });
      const browser = api.browser();
      await browser.trpc.auth.signIn.mutate({ email: viewer.email, password });
      const run = await seedRun(db, seed, { status: "RUNNING" });
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
    // One ping interval, plus the file's set-up (database, listener, API), which its fixtures do
    // within this test's time.
    SSE_PING_INTERVAL_MS + 30_000,
  );
});
