// The runs screens in a real browser against the real web process and database: the live
// transcript (order, a dropped connection resumed without a lost or repeated line, the final
// status after the drop), untrusted tool output rendered inert, usage, timings, the diff and
// webhook reports as runs.get returns them, and the runs list's filters (the API filters by
// status, job and queued day), paging and live status badges.
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { appendRunEvent, finishRun, type RunRef } from "@secondshift/run-lifecycle";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signInContext,
  startWebApp,
  type WebApp,
} from "../testing/index.ts";

let app: WebApp;
let browser: Browser;
let seed: SeededWorkspace;
let context: BrowserContext;
let ownerId: string;
const password = "runs screens passphrase 42";

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser] = await Promise.all([startWebApp({ database: testDatabase }), launchBrowser()]);
  seed = await seedWorkspace(app.db, { name: "runs-team" });
  const owner = await createUser(app.db, password, {
    workspaceId: seed.workspaceId,
    role: "OWNER",
  });
  ownerId = owner.id;
  context = await browser.newContext({ baseURL: app.origin });
  await signInContext(context, app.origin, { email: owner.email, password });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const line = (run: RunRef, n: number) =>
  appendRunEvent(app.db, run, { type: "message", payload: { text: `line ${n}` } });

/** The transcript as shown: each line's seq and text, in page order. */
async function shownLines(page: Page): Promise<Array<{ seq: number; text: string }>> {
  return page.locator("ol[aria-label='Transcript events'] > li").evaluateAll((items) =>
    items.map((li) => ({
      seq: Number(li.getAttribute("data-seq")),
      text: (li.textContent ?? "").trim(),
    })),
  );
}

async function waitForLines(page: Page, count: number, timeout = 10_000) {
  await page
    .locator(`ol[aria-label='Transcript events'] > li`)
    .nth(count - 1)
    .waitFor({ timeout });
}

const messages = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `Messageline ${from + i}`);

describe("run detail: the live transcript", () => {
  it("streams events appended while the page is open, in order, and ends at the final status", async () => {
    const run = await seedRun(app.db, seed, { status: "RUNNING" });
    for (const n of [0, 1, 2]) await line(run, n);
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    await waitForLines(page, 3);
    for (const n of [3, 4, 5]) await line(run, n);
    await waitForLines(page, 6);
    expect((await shownLines(page)).map((l) => l.text)).toEqual(messages(0, 5));
    expect(await page.getByTestId("run-status").textContent()).toBe("Running");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "run-live");

    await finishRun(app.db, run, { status: "SUCCEEDED", summary: "All done." });
    await page.getByTestId("stream-state").getByText("Transcript complete").waitFor();
    await expect.poll(() => page.getByTestId("run-status").textContent()).toBe("Succeeded");
    const lines = await shownLines(page);
    expect(lines.map((l) => l.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(lines.at(-1)?.text).toContain("Succeeded");
    await page.getByText("All done.").waitFor();
    await screenshot(page, "run-finished");
  }, 60_000);

  it("a dropped connection resumes without losing or repeating lines, and shows the final status after a drop", async () => {
    const proxy = await startDroppingProxy(Number(new URL(app.origin).port));
    try {
      const run = await seedRun(app.db, seed, { status: "RUNNING" });
      for (const n of [0, 1]) await line(run, n);
      const page = await context.newPage();
      // Everything (page, scripts, the SSE stream) through the proxy; the session cookie is
      // the host's, whatever the port.
      await page.goto(`${proxy.origin}/w/${seed.workspaceId}/runs/${run.id}`);
      await waitForLines(page, 2);
      const before = proxy.connections();
      proxy.dropAll();
      for (const n of [2, 3, 4]) await line(run, n);
      await waitForLines(page, 5, 20_000);
      expect(proxy.connections()).toBeGreaterThan(before);
      expect((await shownLines(page)).map((l) => l.text)).toEqual(messages(0, 4));

      // Cut again, and the run ends while the page is away: it still gets the end.
      proxy.dropAll();
      await line(run, 5);
      await finishRun(app.db, run, { status: "FAILED", error: "The agent gave up." });
      await page
        .getByTestId("stream-state")
        .getByText("Transcript complete")
        .waitFor({ timeout: 20_000 });
      const lines = await shownLines(page);
      expect(lines.map((l) => l.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(lines.slice(0, 6).map((l) => l.text)).toEqual(messages(0, 5));
      expect(lines.at(-1)?.text).toContain("Failed");
      await expect.poll(() => page.getByTestId("run-status").textContent()).toBe("Failed");
      await screenshot(page, "run-after-drop");
    } finally {
      await proxy.close();
    }
  }, 90_000);

  it("a tool result with markup, a javascript: link and ANSI escapes renders inert", async () => {
    const run = await seedRun(app.db, seed, { status: "RUNNING" });
    const markup = `<img src=x onerror="window.__pwned='img'"><script>window.__pwned='script'</script>`;
    const link = `<a href="javascript:window.__pwned='link'">click me</a> [md](javascript:window.__pwned='md')`;
    const osc8 = `\x1b]8;;javascript:window.__pwned='osc'\x1b\\osc link\x1b]8;;\x1b\\`;
    const long = Array.from({ length: 40 }, (_, i) => `row ${i}`).join("\n");
    await appendRunEvent(app.db, run, {
      type: "model_turn",
      payload: {
        turn: 1,
        text: `I will look. ${markup}`,
        stopReason: "tool_use",
        toolCalls: [{ id: "c1", name: "shell", arguments: { command: `echo '${markup}'` } }],
        usage: { inputTokens: 10, outputTokens: 5 },
      },
    });
    await appendRunEvent(app.db, run, {
      type: "tool_call",
      payload: { turn: 1, callId: "c1", name: "shell", arguments: { command: `echo '${markup}'` } },
    });
    await appendRunEvent(app.db, run, {
      type: "tool_result",
      payload: {
        turn: 1,
        callId: "c1",
        name: "shell",
        isError: false,
        truncated: false,
        content: `exit code: 0\n--- stdout ---\n\x1b[31mred ${markup}\x1b[0m ${link} ${osc8}\n${long}`,
      },
    });
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    await waitForLines(page, 3);
    const transcript = page.locator("ol[aria-label='Transcript events']");
    // The markup is text: visible as written, no element made from it, nothing ran.
    await transcript.getByText(`$ echo '${markup}'`).waitFor();
    expect(await transcript.locator("img, script, iframe, a").count()).toBe(0);
    expect(await page.locator("a[href^='javascript:' i]").count()).toBe(0);
    const red = transcript.locator("span.text-red-400");
    expect(await red.first().textContent()).toBe(`red ${markup}`);
    expect(await transcript.textContent()).not.toContain("\x1b");
    expect(await transcript.textContent()).toContain("osc link");
    // Long output is folded, and opens on request.
    expect(await transcript.textContent()).not.toContain("row 39");
    await page.getByRole("button", { name: /Show all of the output/ }).click();
    await transcript.getByText("row 39").waitFor();
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned ?? null)).toBe(null);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "run-untrusted-output");
  }, 60_000);
});

describe("run detail: cancel", () => {
  it("an owner cancels a running run after confirming; a viewer sees no Cancel", async () => {
    const run = await seedRun(app.db, seed, { status: "RUNNING" });
    await line(run, 0);
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    await waitForLines(page, 1);
    await page.getByRole("button", { name: "Cancel run" }).click();
    const dialog = page.getByRole("dialog", { name: /Cancel run/ });
    await dialog.waitFor();
    await screenshot(page, "run-cancel-confirm");
    await dialog.getByRole("button", { name: "Cancel the run" }).click();
    await page.getByText(/Cancel requested: the run stops at its next step/).waitFor();
    await page.getByText("Cancel requested; stopping…").waitFor();
    expect(await page.getByRole("button", { name: "Cancel run" }).count()).toBe(0);
    // The lifecycle's status event shows in the transcript too.
    await waitForLines(page, 2);
    expect((await shownLines(page)).at(-1)?.text).toContain("Cancel requested");
    const stored = await app.db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(stored.cancelRequestedAt).not.toBeNull();

    const viewer = await createUser(app.db, password, {
      workspaceId: seed.workspaceId,
      role: "VIEWER",
    });
    const viewerContext = await browser.newContext({ baseURL: app.origin });
    await signInContext(viewerContext, app.origin, { email: viewer.email, password });
    const other = await seedRun(app.db, seed, { status: "RUNNING" });
    const viewerPage = await viewerContext.newPage();
    await viewerPage.goto(`/w/${seed.workspaceId}/runs/${other.id}`);
    await viewerPage.getByTestId("stream-state").getByText("Live").waitFor();
    expect(await viewerPage.getByRole("button", { name: "Cancel run" }).count()).toBe(0);
    await viewerContext.close();
  }, 60_000);
});

describe("run detail: usage, timings, the diff and webhook reports from runs.get", () => {
  it("shows tokens against budget, tool calls, timings, the diff and the run's deliveries", async () => {
    const queuedAt = new Date("2026-11-02T10:00:00.000Z");
    const run = await app.db.run.create({
      data: {
        workspaceId: seed.workspaceId,
        jobId: seed.jobId,
        trigger: "MANUAL",
        status: "SUCCEEDED",
        budgetTokens: 10_000,
        tokensUsed: 2_500,
        inputTokens: 2_000,
        outputTokens: 500,
        queuedAt,
        startedAt: new Date(queuedAt.getTime() + 4_000),
        finishedAt: new Date(queuedAt.getTime() + 4_000 + 125_000),
        summary: "Fixed the flaky <b>test</b>.",
        diff: "diff --git a/x.ts b/x.ts\n--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-old line\n+new line",
      },
    });
    // A built-in call and one through the broker: both are counted.
    for (const name of ["shell", "mcp__everything__echo"]) {
      await appendRunEvent(app.db, run, { type: "tool_call", payload: { turn: 1, name } });
    }
    const webhook = await app.db.webhook.create({
      data: {
        workspaceId: seed.workspaceId,
        name: "Run reports",
        // Never decrypted here: the page lists the delivery by the webhook's name.
        urlCiphertext: new Uint8Array([1]),
        secretCiphertext: new Uint8Array([2]),
      },
    });
    await app.db.webhookDelivery.create({
      data: {
        workspaceId: seed.workspaceId,
        webhookId: webhook.id,
        runId: run.id,
        status: "DELIVERED",
        attemptCount: 1,
        deliveredAt: new Date(),
        attempts: { create: [{ statusCode: 204, error: null, durationMs: 85 }] },
      },
    });

    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    const summary = page.getByRole("region", { name: "Run summary" });
    await summary.getByText("2,500 of 10,000").waitFor();
    const term = (name: string) =>
      summary.locator("div", { has: page.locator("dt", { hasText: name }) }).locator("dd");
    expect(await term("Tool calls").textContent()).toBe("2");
    expect(await term("Waited").textContent()).toBe("4.0 s");
    expect(await term("Ran for").textContent()).toBe("2 min 5 s");
    expect(await term("Total").textContent()).toBe("2 min 9 s");
    expect(await term("Input / output tokens").textContent()).toBe("2,000 / 500");
    expect(await summary.getByText("Fixed the flaky <b>test</b>.").count()).toBe(1);
    const diff = page.getByLabel("Diff");
    await diff.getByText("+new line").waitFor();
    expect(await diff.getByText("-old line").count()).toBe(1);
    const reports = page.getByRole("list", { name: "Deliveries" });
    await reports.getByText("Run reports").waitFor();
    expect(await reports.getByText("Delivered", { exact: true }).count()).toBe(1);
    expect(await reports.getByText("HTTP 204").count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "run-detail-finished");
  }, 60_000);
});

describe("runs list", () => {
  it("filters by status and job, pages with Load more, and a live badge follows the run", async () => {
    const other = await app.db.job.create({
      data: {
        workspaceId: seed.workspaceId,
        repositoryId: seed.repositoryId,
        key: "nightly",
        name: "Nightly report",
        prompt: "Report.",
        tokenBudget: 5_000,
        timeoutSeconds: 60,
        requestedTools: [],
        requestHash: "h2",
        status: "APPROVED",
        configCommit: "0".repeat(40),
      },
    });
    for (let i = 0; i < 55; i++) await seedRun(app.db, seed, { status: "SUCCEEDED" });
    for (let i = 0; i < 2; i++) {
      await seedRun(
        app.db,
        { workspaceId: seed.workspaceId, jobId: other.id },
        { status: "FAILED" },
      );
    }
    // Three runs queued long ago: far past the first page, found only by the API's date filter.
    const old = [];
    for (let i = 0; i < 3; i++) old.push(await seedRun(app.db, seed, { status: "SUCCEEDED" }));
    await app.db.run.updateMany({
      where: { id: { in: old.map((r) => r.id) } },
      data: { queuedAt: new Date("2025-03-01T12:00:00.000Z") },
    });
    const live = await seedRun(app.db, seed, { status: "RUNNING" });

    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs`);
    const table = page.getByRole("table", { name: "Runs" });
    await table.waitFor();
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(50);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "runs-list");

    // Status and job together: only the other job's failed runs (the first job has some too).
    await page.getByLabel("Job").selectOption(other.id);
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel("Status").selectOption("SUCCEEDED");
    await page.getByText("No run matches these filters").waitFor();
    await page.getByLabel("Status").selectOption("FAILED");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await table.getByText("Nightly report").count()).toBe(2);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => rows.count()).toBe(50);

    // Queued days: the server filters, so the old runs are the first page, and nothing more.
    await page.getByLabel("Queued from").fill("2025-03-01");
    await page.getByLabel("Queued until").fill("2025-03-01");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
    for (const r of old) {
      await table.getByRole("link", { name: new RegExp(`^Run ${r.id.slice(-8)}`) }).waitFor();
    }
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    await page.getByLabel("Queued from").fill("2025-02-01");
    await page.getByLabel("Queued until").fill("2025-02-28");
    await page.getByText("No run matches these filters").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(() => rows.count()).toBe(50);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(50);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);

    // The running run's badge turns by itself when it ends (the list polls while one is active).
    const liveLink = page.getByRole("link", { name: new RegExp(`^Run ${live.id.slice(-8)}`) });
    expect(await liveLink.getAttribute("aria-label")).toContain("Running");
    await finishRun(app.db, live, { status: "SUCCEEDED" });
    await expect
      .poll(() => liveLink.getAttribute("aria-label"), { timeout: 10_000 })
      .toContain("Succeeded");
    await liveLink.click();
    await page.waitForURL(`**/runs/${live.id}`);
    await screenshot(page, "runs-filtered");
  }, 120_000);
});

describe("event runs", () => {
  it("[E03] the runs list filters by trigger, the run page names its event, the job page lists it", async () => {
    const run = await app.db.run.create({
      data: {
        workspaceId: seed.workspaceId,
        jobId: seed.jobId,
        trigger: "EVENT",
        status: "SUCCEEDED",
        budgetTokens: 1_000,
        commitSha: "b".repeat(40),
      },
    });
    await app.db.triggerEvent.create({
      data: {
        workspaceId: seed.workspaceId,
        jobId: seed.jobId,
        deliveryId: "delivery-1",
        kind: "pull_request",
        action: "opened",
        subjectType: "pull_request",
        subjectNumber: 12,
        subjectTitle: "Fix the flaky test",
        subjectUrl: "https://github.com/acme/app/pull/12",
        subjectAuthor: "octocat",
        actorLogin: "octocat",
        actorPermission: "write",
        headSha: "b".repeat(40),
        body: "Body text only the run's tool returns.",
        dedupeKey: "pr:12:opened:bbbb",
        outcome: "queued",
        runId: run.id,
      },
    });
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs`);
    const rows = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
    await page.getByLabel("Trigger").selectOption("EVENT");
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getByText("Event", { exact: true }).count()).toBe(1);
    await rows.first().getByRole("link").click();
    await page.waitForURL(`**/runs/${run.id}`);
    const origin = page.getByRole("region", { name: "Started by an event" });
    await origin.waitFor();
    const link = origin.getByRole("link", { name: "#12 Fix the flaky test" });
    expect(await link.getAttribute("href")).toBe("https://github.com/acme/app/pull/12");
    expect(await origin.getByText("octocat (write)").count()).toBe(1);
    expect(await page.getByText("Body text only").count()).toBe(0);
    await screenshot(page, "run-started-by-event");

    await page.goto(`/w/${seed.workspaceId}/jobs/${seed.jobId}`);
    const events = page.getByRole("table", { name: "Recent events" });
    await events.waitFor();
    await events.getByRole("link", { name: `run ${run.id.slice(-8)}` }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "job-events");
  }, 60_000);
});

describe("runs: empty and not found", () => {
  it("a workspace without runs says what to do; a run of another workspace is not found", async () => {
    const empty = await seedWorkspace(app.db, { name: "quiet-team" });
    await app.db.membership.create({
      data: { workspaceId: empty.workspaceId, userId: ownerId, role: "OWNER" },
    });
    const page = await context.newPage();
    await page.goto(`/w/${empty.workspaceId}/runs`);
    await page.getByText("No runs yet").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "runs-empty");

    // A run of the quiet workspace, asked for under the first one: no such run there (P05).
    const elsewhere = await seedRun(app.db, empty, { status: "RUNNING" });
    // (The status is already 200 by then: the workspace's loading state streams first.)
    await page.goto(`/w/${seed.workspaceId}/runs/${elsewhere.id}`);
    await page.getByText("Not found").waitFor();
    expect(await page.getByTestId("run-status").count()).toBe(0);
    await screenshot(page, "run-not-found");
  }, 60_000);
});

/** A TCP hop between browser and web app whose connections the test can cut at once. */
async function startDroppingProxy(targetPort: number) {
  const open = new Set<Socket>();
  let accepted = 0;
  const server = createServer((client) => {
    accepted += 1;
    const upstream = connect({ port: targetPort, host: "127.0.0.1" });
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
