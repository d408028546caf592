// The off-thread reader: the same answers as parsing in-thread, files past the deadline or the
// heap cap refused with one error (and the reader goes on with a fresh thread), and the event
// loop left free while a hostile file is read.
import { afterAll, describe, expect, it } from "vitest";
import { bigConfigs, topLevelKeys } from "../../bench/big-config.ts";
import { createConfigReader } from "./off-thread.ts";
import { parseRepoConfig } from "./parse.ts";
import type { RepoConfigLimits } from "./types.ts";

const limits: RepoConfigLimits = {
  maxTimeoutMinutes: 120,
  maxTokenBudget: 1_000_000,
  defaultTimeoutMinutes: 30,
};
const small = "version: 1\njobs:\n  a:\n    name: A\n    prompt: Do it.\n";
const reader = createConfigReader({ deadlineMs: 10_000 });
afterAll(() => reader.close());

describe("createConfigReader", () => {
  it("answers as parseRepoConfig does, for valid files, refused ones and syntax errors", async () => {
    for (const text of [
      small,
      "version: 1\njobs: [",
      ...Object.values(bigConfigs).map((g) => g()),
    ]) {
      const options = { file: ".secondshift.yaml", limits };
      expect(await reader.parse(text, options)).toEqual(parseRepoConfig(text, options));
    }
  }, 60_000);

  it("leaves the event loop free while it reads the largest hostile files", async () => {
    const hostile = [
      "33,000 top-level keys",
      "30,000 tool kinds",
      "flow map of 30,000 keys",
    ] as const;
    let ticks = 0;
    let worstGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
      ticks++;
    }, 5);
    const started = performance.now();
    for (const name of hostile) await reader.parse(bigConfigs[name](), { limits });
    const took = performance.now() - started;
    clearInterval(timer);
    // Read in this thread, each file would hold the loop for its whole parse (tens to hundreds
    // of ms); read off-thread, the timer keeps firing throughout.
    expect(ticks).toBeGreaterThan(took / 5 / 4);
    expect(worstGap).toBeLessThan(Math.max(60, took / 3));
  }, 60_000);

  it("refuses a file that takes longer than the deadline, then reads the next on a fresh thread", async () => {
    const hurried = createConfigReader({ deadlineMs: 20 });
    try {
      const slow = await hurried.parse(topLevelKeys(), { limits });
      expect(slow).toEqual({
        ok: false,
        errors: [
          {
            file: ".secondshift.yaml",
            line: 1,
            column: 1,
            path: "",
            message: ".secondshift.yaml: reading the file took longer than 20 ms; simplify it",
          },
        ],
      });
      expect(await hurried.parse(small, { limits })).toMatchObject({ ok: true });
    } finally {
      await hurried.close();
    }
  }, 60_000);
});
