// npm run bench:web — the owner web app in headless chromium against the BUILT app (run
// `npm run build -w @secondshift/web` first) and a throwaway PostgreSQL (TEST_DATABASE_URL,
// TEST_REDIS_URL as for the tests). Prints these figures:
// 1. insert → visible: a run event appended with the run lifecycle's appendRunEvent while the
//    run page of a run with HISTORY (10,000) stored events is open; latency from just before
//    the insert to the moment a MutationObserver in the page sees its line (both wall clocks of
//    this machine: Date.now() and performance.timeOrigin + performance.now()). p50 / p95 / max
//    over SAMPLES events.
// 1b. that run page's first paint over PAINT_LOADS fresh loads: first contentful paint, largest
//    contentful paint and when the newest stored line was first in the DOM (p50 / p95).
// 1c. scrolling that transcript to its first event: the page scrolls up SCROLL_STEP pixels a
//    frame (requestAnimationFrame) while older pages load; frame times p50 / p95 / max, frames
//    over 50 ms, and the time to reach the first event.
// 2. the runs page of a workspace with 10,000 runs: largest contentful paint (buffered
//    PerformanceObserver) over LCP_LOADS fresh loads, p50 / p95.
// 3. first-load JavaScript of the run page: every script the page loaded, fetched again and
//    compressed here (gzip and brotli, as a server would send them), summed.
import { gzipSync, brotliCompressSync } from "node:zlib";
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace } from "@secondshift/db/testing";
import { appendRunEvent } from "@secondshift/run-lifecycle";
import type { BrowserContext, Page } from "playwright-core";
import {
  conversationEvent,
  launchBrowser,
  seedTranscript,
  signInContext,
  startWebApp,
} from "../src/testing/index.ts";
import { firstPaint, scrollToFirstEvent } from "./transcript.ts";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60);
const LCP_LOADS = Number(process.env.BENCH_LCP_LOADS ?? 15);
const PAINT_LOADS = Number(process.env.BENCH_PAINT_LOADS ?? 10);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 10_000);
const RUNS = 10_000;
const password = "bench passphrase 0123456";

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function seed(app: Awaited<ReturnType<typeof startWebApp>>) {
  const ws = await seedWorkspace(app.db, { name: "bench" });
  const owner = await createUser(app.db, password, { workspaceId: ws.workspaceId, role: "OWNER" });
  // A second workspace holds the 10,000 runs (the live run's workspace stays small).
  const big = await seedWorkspace(app.db, { name: "bench-big" });
  await app.db.membership.create({
    data: { workspaceId: big.workspaceId, userId: owner.id, role: "OWNER" },
  });
  const statuses = ["SUCCEEDED", "FAILED", "CANCELLED", "SUCCEEDED"] as const;
  for (let from = 0; from < RUNS; from += 1000) {
    await app.db.run.createMany({
      data: Array.from({ length: 1000 }, (_, i) => ({
        workspaceId: big.workspaceId,
        jobId: big.jobId,
        trigger: "SCHEDULE" as const,
        status: statuses[(from + i) % statuses.length]!,
        budgetTokens: 10_000,
        tokensUsed: (from + i) % 9_000,
        queuedAt: new Date(Date.now() - (RUNS - from - i) * 60_000),
      })),
    });
  }
  return { ws, big, owner };
}

async function eventLatency(
  page: Page,
  db: Parameters<typeof appendRunEvent>[0],
  run: { id: string; workspaceId: string },
) {
  await page.goto(`/w/${run.workspaceId}/runs/${run.id}`);
  await page.getByTestId("stream-state").getByText("Live").waitFor();
  await page.evaluate(() => {
    const seen: Record<string, number> = {};
    (window as { __seen?: Record<string, number> }).__seen = seen;
    new MutationObserver((records) => {
      const now = performance.timeOrigin + performance.now();
      for (const r of records)
        for (const node of r.addedNodes) {
          if (!(node instanceof HTMLElement)) continue;
          // The first line arrives inside a new list: look at the added subtree.
          for (const el of [node, ...node.querySelectorAll("[data-seq]")]) {
            const seq = el.getAttribute("data-seq");
            if (seq !== null && !(seq in seen)) seen[seq] = now;
          }
        }
    }).observe(document.body, { childList: true, subtree: true });
  });
  const inserted = new Map<number, number>();
  for (let i = 0; i < SAMPLES; i++) {
    const at = Date.now();
    const seq = await appendRunEvent(db, run, {
      type: "tool_result",
      payload: {
        name: "shell",
        isError: false,
        truncated: false,
        content: `exit code: 0\n--- stdout ---\n\x1b[32mok ${i}\x1b[0m`,
      },
    });
    inserted.set(seq, at);
    await new Promise((r) => setTimeout(r, 60 + Math.random() * 60));
  }
  await page.waitForFunction(
    (count) => Object.keys((window as { __seen?: object }).__seen ?? {}).length >= count,
    inserted.size,
    { timeout: 30_000 },
  );
  const seen = await page.evaluate(() => (window as { __seen?: Record<string, number> }).__seen!);
  return [...inserted].map(([seq, at]) => seen[String(seq)]! - at);
}

async function largestPaint(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "load" });
  await page.getByRole("table", { name: "Runs" }).waitFor();
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let last = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) last = entry.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve(last), 300);
      }),
  );
  await page.close();
  return lcp;
}

async function firstLoadScripts(context: BrowserContext, url: string, origin: string) {
  const page = await context.newPage();
  await page.goto(url, { waitUntil: "networkidle" });
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .filter(
        (e) =>
          (e as PerformanceResourceTiming).initiatorType === "script" || e.name.endsWith(".js"),
      )
      .map((e) => e.name),
  );
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const src of new Set(scripts)) {
    if (!src.startsWith(origin)) continue;
    const body = Buffer.from(await (await context.request.get(src)).body());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    brotli += brotliCompressSync(body).length;
  }
  await page.close();
  return { count: new Set(scripts).size, raw, gzip, brotli };
}

async function main() {
  const [app, browser] = await Promise.all([startWebApp(), launchBrowser()]);
  try {
    const { ws, big, owner } = await seed(app);
    const context = await browser.newContext({ baseURL: app.origin });
    await signInContext(context, app.origin, { email: owner.email, password });
    const run = await seedRun(app.db, ws, { status: "RUNNING", budgetTokens: 50_000 });
    await seedTranscript(app.db, run, HISTORY, conversationEvent);
    const runUrl = `/w/${ws.workspaceId}/runs/${run.id}`;

    // Warm the server (first render of each route compiles nothing, but loads modules).
    await largestPaint(context, `/w/${big.workspaceId}/runs`);
    const warm = await context.newPage();
    await warm.goto(runUrl);
    await warm.close();

    const paints = { fcp: [] as number[], lcp: [] as number[], newest: [] as number[] };
    for (let i = 0; i < PAINT_LOADS; i++) {
      const paint = await firstPaint(context, runUrl, HISTORY - 1);
      paints.fcp.push(paint.fcp);
      paints.lcp.push(paint.lcp);
      paints.newest.push(paint.newestLine);
    }
    const p5095 = (v: number[]) => `p50 ${ms(quantile(v, 0.5))}, p95 ${ms(quantile(v, 0.95))}`;
    console.log(
      `run page with ${HISTORY} events, first paint (${PAINT_LOADS} loads): ` +
        `first contentful paint ${p5095(paints.fcp)}; largest contentful paint ${p5095(paints.lcp)}; ` +
        `newest line in the DOM ${p5095(paints.newest)}`,
    );

    const scroll = await scrollToFirstEvent(context, runUrl);
    console.log(
      `scrolling the ${HISTORY}-event transcript to its first event (${scroll.frames.length} frames, ` +
        `${scroll.pages} pages loaded): frame time ${p5095(scroll.frames)}, max ${ms(Math.max(...scroll.frames))}, ` +
        `${scroll.frames.filter((f) => f > 50).length} frames over 50 ms; first event reached after ${ms(scroll.totalMs)} (${scroll.atTop} frames at the top waiting for a page); ` +
        `an older page's request ${p5095(scroll.fetches)}`,
    );

    const page = await context.newPage();
    const latencies = await eventLatency(page, app.db, run);
    await page.close();
    console.log(
      `run event insert → visible in the open run page with ${HISTORY} events of history (${latencies.length} events): ` +
        `p50 ${ms(quantile(latencies, 0.5))}, p95 ${ms(quantile(latencies, 0.95))}, max ${ms(Math.max(...latencies))}`,
    );

    const listPaints: number[] = [];
    for (let i = 0; i < LCP_LOADS; i++)
      listPaints.push(await largestPaint(context, `/w/${big.workspaceId}/runs`));
    console.log(
      `runs page with ${RUNS} runs, largest contentful paint (${listPaints.length} loads): ` +
        `p50 ${ms(quantile(listPaints, 0.5))}, p95 ${ms(quantile(listPaints, 0.95))}`,
    );

    const fresh = await browser.newContext({ baseURL: app.origin });
    await signInContext(fresh, app.origin, { email: owner.email, password });
    const js = await firstLoadScripts(fresh, runUrl, app.origin);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(
      `run page first-load JavaScript (${js.count} scripts): ${kb(js.gzip)} gzip, ${kb(js.brotli)} brotli (${kb(js.raw)} uncompressed)`,
    );
  } finally {
    await browser.close();
    await app.close();
  }
}

await main();
