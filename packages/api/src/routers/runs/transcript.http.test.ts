// The live run transcript over real HTTP (SSE through tRPC's httpSubscriptionLink), a real
// PostgreSQL with the notify trigger, and the process's shared listener: order, exact resume
// after a reconnect or a dropped connection, the end at the final status, and who may watch.
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { revokeSession } from "@secondshift/accounts";
import { createUser } from "@secondshift/accounts/testing";
import { removeMember } from "@secondshift/domain";
import { actorContext } from "@secondshift/domain/testing";
import type { Db } from "@secondshift/db";
import { seedRun } from "@secondshift/db/testing";
import { appendRunEvent, finishRun, type RunRef } from "@secondshift/run-lifecycle";
import type { TRPCClientError } from "@trpc/client";
import pg from "pg";
import { describe, expect, vi } from "vitest";
import type { AppRouter } from "../../root.ts";
import { startTestApi, type TestApi } from "../../testing/index.ts";
import { transcriptTest } from "../../testing/transcript-fixture.ts";
import {
  collectTranscript,
  transcriptClient,
  type CollectedTranscript,
} from "../../testing/transcript.ts";

const password = "transcript passphrase 0123";
/** How old the stream's last check of the viewer may be before it checks again. */
const REAUTHORIZE_MS = 300;

const test = transcriptTest({ password, streamReauthorizeMs: REAUTHORIZE_MS });

async function signedIn(api: TestApi, who: { email: string }) {
  const browser = api.browser();
  await browser.trpc.auth.signIn.mutate({ email: who.email, password });
  return transcriptClient(api.base, browser.cookies);
}

const append = (db: Db, run: RunRef, n: number) =>
  appendRunEvent(db, run, { type: "message", payload: { text: `line ${n}` } });

const seqs = (events: { seq: number }[]) => events.map((e) => e.seq);
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

async function failureCode(done: Promise<void>): Promise<string | undefined> {
  return done.then(
    () => "completed",
    (e: unknown) => (e as TRPCClientError<AppRouter>).data?.code,
  );
}

/**
 * Until the stream's next event makes it check the viewer again: it checks on the clock (once
 * its last check is REAUTHORIZE_MS old) and signals nothing, so this waits on that clock. Its
 * last check was at the latest when it sent the last event the watch received.
 */
async function untilRecheckDue(watch: CollectedTranscript): Promise<void> {
  const lastArrival = watch.arrivals.at(-1)!;
  await vi.waitUntil(() => performance.now() - lastArrival >= REAUTHORIZE_MS, {
    timeout: 5_000,
    interval: 20,
  });
}

describe("runs.transcript", () => {
  test("sends stored events in order, then new ones as written, and ends with the final status", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    for (const n of [0, 1, 2]) await append(db, run, n);
    const viewer = await signedIn(api, users.viewer);
    const watch = collectTranscript(viewer, { workspaceId: acme.workspaceId, runId: run.id });
    await watch.waitFor(3);
    for (const n of [3, 4]) await append(db, run, n);
    await watch.waitFor(5);
    await finishRun(db, run, { status: "SUCCEEDED", summary: "done" });
    await appendRunEvent(db, run, { type: "run_finished", payload: { status: "SUCCEEDED" } });
    await watch.done;
    expect(seqs(watch.events)).toEqual(range(0, 5));
    expect(watch.ids).toEqual(range(0, 5).map(String));
    expect(watch.events[4]).toMatchObject({ type: "message", payload: { text: "line 4" } });
    expect(watch.events.at(-1)).toMatchObject({ type: "status", payload: { status: "SUCCEEDED" } });
    expect(watch.events.at(-1)?.createdAt).toBeInstanceOf(Date);
  });

  test("five viewers of one run, events written back to back: each gets every event once, in order", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await append(db, run, 0);
    const watches = await Promise.all(
      Array.from({ length: 5 }, async () =>
        collectTranscript(await signedIn(api, users.viewer), {
          workspaceId: acme.workspaceId,
          runId: run.id,
        }),
      ),
    );
    await Promise.all(watches.map((w) => w.waitFor(1)));
    await Promise.all(Array.from({ length: 40 }, (_, n) => append(db, run, n + 1)));
    await finishRun(db, run, { status: "SUCCEEDED" });
    await Promise.all(watches.map((w) => w.done));
    for (const w of watches) expect(seqs(w.events)).toEqual(range(0, 41));
  });

  test("a reconnect with lastEventId continues exactly, including events written while away", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    for (const n of [0, 1, 2]) await append(db, run, n);
    const viewer = await signedIn(api, users.viewer);
    const first = collectTranscript(viewer, { workspaceId: acme.workspaceId, runId: run.id });
    await first.waitFor(3);
    first.unsubscribe();
    for (const n of [3, 4]) await append(db, run, n);
    const again = collectTranscript(viewer, {
      workspaceId: acme.workspaceId,
      runId: run.id,
      lastEventId: first.ids.at(-1),
    });
    await again.waitFor(2);
    await append(db, run, 5);
    await finishRun(db, run, { status: "FAILED", error: "stopped" });
    await again.done;
    expect(seqs(first.events)).toEqual([0, 1, 2]);
    expect(seqs(again.events)).toEqual(range(3, 6));
  });

  test("a dropped connection resumes through Last-Event-ID without a gap or a duplicate", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const proxy = await startDroppingProxy(new URL(api.origin).port);
    try {
      const run = await seedRun(db, acme, { status: "RUNNING" });
      for (const n of [0, 1]) await append(db, run, n);
      const browser = api.browser();
      await browser.trpc.auth.signIn.mutate({ email: users.viewer.email, password });
      const viewer = transcriptClient(`${proxy.origin}/api/trpc`, browser.cookies);
      const watch = collectTranscript(viewer, { workspaceId: acme.workspaceId, runId: run.id });
      await watch.waitFor(2);
      proxy.dropAll();
      for (const n of [2, 3, 4]) await append(db, run, n);
      await watch.waitFor(5, 15_000);
      await finishRun(db, run, { status: "SUCCEEDED" });
      await watch.done;
      expect(proxy.connections()).toBeGreaterThan(1);
      expect(seqs(watch.events)).toEqual(range(0, 5));
    } finally {
      await proxy.close();
    }
  }, 30_000);

  test("a run that already ended: its stored events up to the final status, then the end", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await append(db, run, 0);
    await finishRun(db, run, { status: "SUCCEEDED" });
    await appendRunEvent(db, run, { type: "run_finished", payload: { status: "SUCCEEDED" } });
    const viewer = await signedIn(api, users.viewer);
    const all = collectTranscript(viewer, { workspaceId: acme.workspaceId, runId: run.id });
    await all.done;
    expect(all.events.map((e) => e.type)).toEqual(["message", "status"]);
    const after = collectTranscript(viewer, {
      workspaceId: acme.workspaceId,
      runId: run.id,
      lastEventId: "1",
    });
    await after.done;
    expect(after.events).toEqual([]);
  });

  test("keeps streaming after the shared listener's database connection is cut", async ({
    db,
    testDatabase,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    const viewer = await signedIn(api, users.viewer);
    const watch = collectTranscript(viewer, { workspaceId: acme.workspaceId, runId: run.id });
    await append(db, run, 0);
    await watch.waitFor(1);
    const admin = new pg.Client({ connectionString: testDatabase.url });
    await admin.connect();
    const cut = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
    );
    await admin.end();
    expect(cut.rowCount).toBe(1);
    for (const n of [1, 2]) await append(db, run, n);
    await watch.waitFor(3);
    await finishRun(db, run, { status: "SUCCEEDED" });
    await watch.done;
    expect(seqs(watch.events)).toEqual(range(0, 3));
  });

  test("[P05] a member of another workspace gets NOT_FOUND for the run, naming either workspace", async ({
    db,
    api,
    acme,
    other,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await append(db, run, 0);
    const client = await signedIn(api, users.otherOwner);
    const viaOwn = collectTranscript(client, {
      workspaceId: other.workspaceId,
      runId: run.id,
    });
    const viaTheirs = collectTranscript(client, { workspaceId: acme.workspaceId, runId: run.id });
    expect(await failureCode(viaOwn.done)).toBe("NOT_FOUND");
    expect(await failureCode(viaTheirs.done)).toBe("NOT_FOUND");
    expect([...viaOwn.events, ...viaTheirs.events]).toEqual([]);
  });

  test("[P05] a signed-in non-member gets NOT_FOUND", async ({ db, api, acme, users }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await append(db, run, 0);
    const stranger = await signedIn(api, users.stranger);
    const watch = collectTranscript(stranger, { workspaceId: acme.workspaceId, runId: run.id });
    expect(await failureCode(watch.done)).toBe("NOT_FOUND");
    expect(watch.events).toEqual([]);
  });

  test("[P05] a viewer removed from the workspace mid-stream gets NOT_FOUND and no later event", async ({
    db,
    api,
    acme,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    const leaving = await createUser(db, password, {
      workspaceId: acme.workspaceId,
      role: "VIEWER",
    });
    const watch = collectTranscript(await signedIn(api, leaving), {
      workspaceId: acme.workspaceId,
      runId: run.id,
    });
    await append(db, run, 0);
    await watch.waitFor(1);
    await db.membership.deleteMany({ where: { userId: leaving.id } });
    await untilRecheckDue(watch);
    await append(db, run, 1);
    expect(await failureCode(watch.done)).toBe("NOT_FOUND");
    expect(seqs(watch.events)).toEqual([0]);
  });

  test("[P05] a member removed by an owner mid-stream is cut off within a second: the change is published, not waited for", async ({
    db,
    listener,
    acme,
  }) => {
    // The process's default re-check (a minute): only the published change can end it in time.
    const slow = await startTestApi(db, { runEvents: listener });
    try {
      const run = await seedRun(db, acme, { status: "RUNNING" });
      const owner = await createUser(db, password, {
        workspaceId: acme.workspaceId,
        role: "OWNER",
      });
      const leaving = await createUser(db, password, {
        workspaceId: acme.workspaceId,
        role: "VIEWER",
      });
      const watch = collectTranscript(await signedIn(slow, leaving), {
        workspaceId: acme.workspaceId,
        runId: run.id,
      });
      await append(db, run, 0);
      await watch.waitFor(1);
      const removedAt = performance.now();
      await removeMember(actorContext(db, acme, owner.id), { userId: leaving.id });
      expect(await failureCode(watch.done)).toBe("NOT_FOUND");
      expect(performance.now() - removedAt).toBeLessThan(1_000);
      await append(db, run, 1);
      expect(seqs(watch.events)).toEqual([0]);
    } finally {
      await slow.close();
    }
  });

  test("a session ended from elsewhere cuts its open stream within a second: UNAUTHORIZED", async ({
    db,
    listener,
    acme,
  }) => {
    const slow = await startTestApi(db, { runEvents: listener });
    try {
      const run = await seedRun(db, acme, { status: "RUNNING" });
      const viewer = await createUser(db, password, {
        workspaceId: acme.workspaceId,
        role: "VIEWER",
      });
      const watch = collectTranscript(await signedIn(slow, viewer), {
        workspaceId: acme.workspaceId,
        runId: run.id,
      });
      await append(db, run, 0);
      await watch.waitFor(1);
      const session = await db.session.findFirstOrThrow({ where: { userId: viewer.id } });
      const endedAt = performance.now();
      await revokeSession(slow.accounts.deps, viewer.id, session.id);
      expect(await failureCode(watch.done)).toBe("UNAUTHORIZED");
      expect(performance.now() - endedAt).toBeLessThan(1_000);
      expect(seqs(watch.events)).toEqual([0]);
    } finally {
      await slow.close();
    }
  });

  test("signing out ends a running stream: UNAUTHORIZED, no later event", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    const browser = api.browser();
    await browser.trpc.auth.signIn.mutate({ email: users.viewer.email, password });
    const watch = collectTranscript(transcriptClient(api.base, new Map(browser.cookies)), {
      workspaceId: acme.workspaceId,
      runId: run.id,
    });
    await append(db, run, 0);
    await watch.waitFor(1);
    await browser.trpc.auth.signOut.mutate();
    await untilRecheckDue(watch);
    await append(db, run, 1);
    expect(await failureCode(watch.done)).toBe("UNAUTHORIZED");
    expect(seqs(watch.events)).toEqual([0]);
  });

  test("signed out: UNAUTHORIZED, and no event", async ({ db, api, acme }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await append(db, run, 0);
    const anonymous = transcriptClient(api.base, new Map());
    const watch = collectTranscript(anonymous, { workspaceId: acme.workspaceId, runId: run.id });
    expect(await failureCode(watch.done)).toBe("UNAUTHORIZED");
    expect(watch.events).toEqual([]);
  });
});

/** A TCP hop between client and server whose connections the test can cut at once. */
async function startDroppingProxy(targetPort: string) {
  const open = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    const upstream = connect({ port: Number(targetPort), host: "127.0.0.1" });
    for (const s of [client, upstream]) {
      open.add(s);
      s.on("close", () => open.delete(s));
      s.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    dropAll: () => open.forEach((s) => s.destroy()),
    close: () =>
      new Promise<void>((resolve) => {
        open.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}
