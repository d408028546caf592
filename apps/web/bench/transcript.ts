// bench:web's figures for a long run transcript: the run page's first paint, and frame times
// while scrolling the whole history up (older pages loading on the way).
import type { BrowserContext } from "playwright-core";

/** Pixels scrolled up per animation frame: a fast, steady scroll (a flick). */
const SCROLL_STEP = Number(process.env.BENCH_SCROLL_STEP ?? 400);

/**
 * One fresh load: paint timings and when the newest line (`data-seq` = newestSeq) was first in
 * the DOM, recorded by an observer installed before the page's own scripts.
 */
export async function firstPaint(context: BrowserContext, url: string, newestSeq: number) {
  const page = await context.newPage();
  await page.addInitScript((seq) => {
    const w = window as { __newestAt?: number };
    new MutationObserver(() => {
      if (w.__newestAt === undefined && document.querySelector(`li[data-seq='${seq}']`))
        w.__newestAt = performance.now();
    }).observe(document, { childList: true, subtree: true });
  }, newestSeq);
  await page.goto(url, { waitUntil: "load" });
  await page.locator(`li[data-seq='${newestSeq}']`).waitFor();
  const timings = await page.evaluate(
    () =>
      new Promise<{ fcp: number; lcp: number; newestLine: number }>((resolve) => {
        let lcp = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) lcp = entry.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => {
          const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
          const newestLine = (window as { __newestAt?: number }).__newestAt ?? NaN;
          resolve({ fcp, lcp, newestLine });
        }, 300);
      }),
  );
  await page.close();
  return timings;
}

/**
 * Scrolls the transcript up SCROLL_STEP pixels per frame until its first event (seq 0) is in
 * the DOM and at the top, measuring every frame's duration in the page.
 */
export async function scrollToFirstEvent(context: BrowserContext, url: string) {
  const page = await context.newPage();
  // Each older page's request → response time, as the browser saw it.
  const fetches: number[] = [];
  page.on("requestfinished", (r) => {
    if (!r.url().includes("runs.transcriptPage")) return;
    const t = r.timing();
    fetches.push(t.responseEnd - t.requestStart);
  });
  await page.goto(url);
  await page.getByTestId("stream-state").getByText("Live").waitFor();
  // tsx (esbuild keepNames) wraps the named callback below in __name, which the page lacks.
  await page.evaluate("globalThis.__name = (fn) => fn");
  const result = await page.evaluate(
    (step) =>
      new Promise<{ frames: number[]; totalMs: number; atTop: number }>((resolve, reject) => {
        const scroller = document.querySelector<HTMLElement>(
          "[aria-label='Transcript, scrollable']",
        );
        if (!scroller) return reject(new Error("no transcript scroller"));
        const frames: number[] = [];
        // Frames spent at the top of what is loaded, waiting for the older page.
        let atTop = 0;
        const start = performance.now();
        let last = start;
        const frame = (now: number) => {
          frames.push(now - last);
          last = now;
          const first = scroller.querySelector("li[data-seq='0']");
          if (first && scroller.scrollTop === 0)
            return resolve({ frames, totalMs: now - start, atTop });
          if (scroller.scrollTop === 0) atTop++;
          if (now - start > 120_000) return reject(new Error("did not reach the first event"));
          scroller.scrollTop = Math.max(0, scroller.scrollTop - step);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame((now) => {
          last = now;
          requestAnimationFrame(frame);
        });
      }),
    SCROLL_STEP,
  );
  await page.close();
  // The first load's page came with the HTML (prefetched), not as a request.
  return { ...result, pages: fetches.length + 1, fetches };
}
