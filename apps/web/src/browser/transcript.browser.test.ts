// The run page's transcript with a long history and as a conversation, in chromium against the
// built app: a 3,000-event run opens at its latest events (only those loaded and in the DOM),
// scrolling up loads older pages while the view stays on the line it showed, a live event
// appears at the bottom and is followed; the untrusted-data wrapper is never shown (its source
// is a label), the final answer and a failure's error are each shown once. No CSP violation.
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { appendRunEvent, finishRun } from "@secondshift/run-lifecycle";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import {
  conversationEvent,
  launchBrowser,
  screenshot,
  seedTranscript,
  seriousA11yViolations,
  signInContext,
  startWebApp,
  watchCspViolations,
  type WebApp,
} from "../testing/index.ts";

let app: WebApp;
let browser: Browser;
let seed: SeededWorkspace;
let context: BrowserContext;
const password = "transcript screens passphrase 9";

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser] = await Promise.all([startWebApp({ database: testDatabase }), launchBrowser()]);
  seed = await seedWorkspace(app.db, { name: "transcript-team" });
  const owner = await createUser(app.db, password, {
    workspaceId: seed.workspaceId,
    role: "OWNER",
  });
  context = await browser.newContext({ baseURL: app.origin });
  await signInContext(context, app.origin, { email: owner.email, password });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const lines = (page: Page) => page.locator("ol[aria-label='Transcript events'] > li");
const scroller = (page: Page) => page.getByLabel("Transcript, scrollable");

/** The seqs of the lines in the DOM (the virtual list renders those near the viewport). */
async function renderedSeqs(page: Page): Promise<number[]> {
  return lines(page).evaluateAll((items) => items.map((li) => Number(li.dataset.seq)));
}

/** Whether the line is inside the scroller's visible box. */
async function inView(page: Page, line: Locator): Promise<boolean> {
  const [box, view] = await Promise.all([line.boundingBox(), scroller(page).boundingBox()]);
  if (!box || !view) return false;
  return box.y + box.height > view.y && box.y < view.y + view.height;
}

const bodyText = (page: Page) => page.locator("main").innerText();
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("run detail: a long transcript", () => {
  it("opens at the latest events, loads older ones on scroll (anchored), follows a live event", async () => {
    const run = await seedRun(app.db, seed, { status: "RUNNING" });
    await seedTranscript(app.db, run, 3_000, conversationEvent);
    const page = await context.newPage();
    const violations = watchCspViolations(page);
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    await page.getByTestId("stream-state").getByText("Live").waitFor();
    const newest = page.locator("li[data-seq='2999']");
    await newest.waitFor();
    expect(await inView(page, newest)).toBe(true);
    expect(Math.min(...(await renderedSeqs(page)))).toBeGreaterThan(2_800);
    expect((await renderedSeqs(page)).length).toBeLessThan(80);
    await page.getByText("Showing the latest events; scroll up for older ones.").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "run-long-latest");

    // To the top of what is loaded: the older page comes, and the line shown stays in view.
    await scroller(page).evaluate((el) => el.scrollTo({ top: 0 }));
    const oldestLoaded = page.locator("li[data-seq='2800']");
    await page.locator("li[data-seq='2799']").waitFor({ state: "attached" });
    await expect.poll(() => inView(page, oldestLoaded)).toBe(true);
    await screenshot(page, "run-long-older-page");

    // Up through the whole history: every page loads, down to the first event.
    await expect
      .poll(
        async () => {
          await scroller(page).evaluate((el) => el.scrollTo({ top: 0 }));
          return renderedSeqs(page).then((seqs) => Math.min(...seqs));
        },
        { timeout: 30_000, interval: 100 },
      )
      .toBe(0);
    await page.getByText("Showing the latest events").waitFor({ state: "detached" });

    // Back at the bottom, a live event appears there and stays in view.
    await scroller(page).evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect.poll(() => inView(page, newest)).toBe(true);
    await appendRunEvent(app.db, run, { type: "message", payload: { text: "the live one" } });
    const live = page.locator("li[data-seq='3000']");
    await live.getByText("the live one").waitFor();
    await expect.poll(() => inView(page, live)).toBe(true);
    expect(violations).toEqual([]);
    await screenshot(page, "run-long-live");
  }, 120_000);
});

describe("run detail: the transcript as a conversation", () => {
  it("shows a tool result's source as a label, never the untrusted-data wrapper; the final answer once", async () => {
    const run = await seedRun(app.db, seed, { status: "RUNNING" });
    const answer = "The flaky test now waits for the server to listen.";
    await seedTranscript(app.db, run, 1, () => conversationEvent(2));
    await appendRunEvent(app.db, run, {
      type: "model_turn",
      payload: {
        turn: 2,
        text: answer,
        stopReason: "end_turn",
        toolCalls: [],
        usage: { inputTokens: 50, outputTokens: 12 },
      },
    });
    await appendRunEvent(app.db, run, { type: "final_answer", payload: { summary: answer } });
    await finishRun(app.db, run, { status: "SUCCEEDED", summary: answer });
    const page = await context.newPage();
    const violations = watchCspViolations(page);
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    await page.getByTestId("stream-state").getByText("Transcript complete").waitFor();
    await page.getByText("untrusted output of tool:shell").waitFor();
    const text = await bodyText(page);
    expect(text).not.toContain("untrusted-data");
    expect(text).toContain("exit code: 0");
    expect(occurrences(text, answer)).toBe(1);
    expect(await page.getByRole("region", { name: "Run summary" }).innerText()).toContain(answer);
    expect(violations).toEqual([]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "run-conversation-answer");
  }, 60_000);

  it("shows a failure's error once", async () => {
    const run = await seedRun(app.db, seed, { status: "RUNNING" });
    const error = "The model provider refused the request: quota exceeded.";
    await appendRunEvent(app.db, run, {
      type: "error",
      payload: { message: error, outcome: "failed" },
    });
    await appendRunEvent(app.db, run, {
      type: "agent_finished",
      payload: { outcome: "failed", usage: { inputTokens: 0, outputTokens: 0 }, error },
    });
    await finishRun(app.db, run, { status: "FAILED", error });
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    await page.getByTestId("stream-state").getByText("Transcript complete").waitFor();
    await expect.poll(() => page.getByTestId("run-status").textContent()).toBe("Failed");
    expect(occurrences(await bodyText(page), error)).toBe(1);
    await screenshot(page, "run-conversation-error");
  }, 60_000);
});
