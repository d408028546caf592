// runs.transcriptPage over real HTTP against PostgreSQL: the newest page first, older pages by
// cursor down to the first event, NOT_FOUND for a run of another workspace, a viewer may read;
// and runs.transcript started after the page's newest seq sends only what came after it.
import type { Db } from "@secondshift/db";
import { seedRun } from "@secondshift/db/testing";
import { appendRunEvent, finishRun, type RunRef } from "@secondshift/run-lifecycle";
import { describe, expect } from "vitest";
import type { TestApi } from "../../testing/index.ts";
import { transcriptTest } from "../../testing/transcript-fixture.ts";
import { collectTranscript, transcriptClient } from "../../testing/transcript.ts";

const password = "transcript page passphrase 7";

const test = transcriptTest({ password });

async function signedIn(api: TestApi, who: { email: string }) {
  const browser = api.browser();
  await browser.trpc.auth.signIn.mutate({ email: who.email, password });
  return browser;
}

async function appendLines(db: Db, run: RunRef, count: number) {
  for (let n = 0; n < count; n++) {
    await appendRunEvent(db, run, { type: "message", payload: { text: `line ${n}` } });
  }
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("runs.transcriptPage", () => {
  test("a viewer reads the newest page, then older pages by cursor down to the first event", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await appendLines(db, run, 25);
    const { trpc } = await signedIn(api, users.viewer);
    const input = { workspaceId: acme.workspaceId, runId: run.id, limit: 10 };
    const newest = await trpc.runs.transcriptPage.query(input);
    expect(newest.events.map((e) => e.seq)).toEqual(range(15, 24));
    expect(newest.events.at(-1)).toMatchObject({ type: "message", payload: { text: "line 24" } });
    expect(newest.events[0]?.createdAt).toBeInstanceOf(Date);
    expect(newest.nextCursor).toBe(15);
    const middle = await trpc.runs.transcriptPage.query({ ...input, cursor: newest.nextCursor });
    expect(middle.events.map((e) => e.seq)).toEqual(range(5, 14));
    const first = await trpc.runs.transcriptPage.query({ ...input, cursor: middle.nextCursor });
    expect(first.events.map((e) => e.seq)).toEqual(range(0, 4));
    expect(first.nextCursor).toBeNull();
  });

  test("an exact page has no older page; a run without events is one empty page", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    const { trpc } = await signedIn(api, users.viewer);
    const input = { workspaceId: acme.workspaceId, runId: run.id, limit: 5 };
    expect(await trpc.runs.transcriptPage.query(input)).toEqual({ events: [], nextCursor: null });
    await appendLines(db, run, 5);
    const page = await trpc.runs.transcriptPage.query(input);
    expect(page.events.map((e) => e.seq)).toEqual(range(0, 4));
    expect(page.nextCursor).toBeNull();
  });

  test("a run of another workspace is not found, as for runs.get", async ({
    db,
    api,
    acme,
    other,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await appendLines(db, run, 2);
    const { trpc } = await signedIn(api, users.otherOwner);
    const asOther = { workspaceId: other.workspaceId, runId: run.id, limit: 10 };
    const codes = await Promise.all([
      trpc.runs.transcriptPage.query(asOther).catch((e: { data?: { code?: string } }) => e),
      trpc.runs.get.query(asOther).catch((e: { data?: { code?: string } }) => e),
    ]);
    expect(codes.map((e) => (e as { data?: { code?: string } }).data?.code)).toEqual([
      "NOT_FOUND",
      "NOT_FOUND",
    ]);
  });

  test("the live transcript started after the page's newest seq does not replay the page", async ({
    db,
    api,
    acme,
    users,
  }) => {
    const run = await seedRun(db, acme, { status: "RUNNING" });
    await appendLines(db, run, 30);
    const browser = await signedIn(api, users.viewer);
    const input = { workspaceId: acme.workspaceId, runId: run.id };
    const page = await browser.trpc.runs.transcriptPage.query({ ...input, limit: 10 });
    const newest = page.events.at(-1)!.seq;
    const live = collectTranscript(transcriptClient(api.base, browser.cookies), {
      ...input,
      lastEventId: String(newest),
    });
    await appendRunEvent(db, run, { type: "message", payload: { text: "after the page" } });
    await finishRun(db, run, { status: "SUCCEEDED", summary: "done" });
    await live.done;
    expect(live.events.map((e) => e.seq)).toEqual([30, 31]);
    expect(live.events[0]).toMatchObject({ payload: { text: "after the page" } });
  });
});
