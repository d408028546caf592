import type { AppError } from "@secondshift/errors";
import { describe, expect, it } from "vitest";
import { createPasswordWork } from "./password-work.ts";

/** A hash that finishes only when released, counting how many run at once. */
function heldHashes() {
  const waiting: Array<() => void> = [];
  let running = 0;
  let most = 0;
  return {
    hash: (password: string) =>
      new Promise<string>((done) => {
        running++;
        most = Math.max(most, running);
        waiting.push(() => {
          running--;
          done(`hashed:${password}`);
        });
      }),
    releaseAll: () => waiting.splice(0).forEach((release) => release()),
    started: () => waiting.length,
    most: () => most,
  };
}

describe("password work: a bounded queue for argon2id", () => {
  it("runs at most `concurrency` hashes at once; the waiting ones run in turn", async () => {
    const held = heldHashes();
    const work = createPasswordWork({ concurrency: 2, maxWaiting: 10, hash: held.hash });
    const results = Array.from({ length: 6 }, (_, i) => work.hash(`pw${i}`));
    await expect.poll(held.started).toBe(2);
    while (held.started() > 0) {
      held.releaseAll();
      await new Promise((r) => setImmediate(r));
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `hashed:pw${i}`));
    expect(held.most()).toBe(2);
  });

  it("refuses at once, with 429 words, what would wait past the queue's bound; later calls run again", async () => {
    const held = heldHashes();
    const work = createPasswordWork({ concurrency: 1, maxWaiting: 2, hash: held.hash });
    const accepted = [work.hash("a"), work.hash("b"), work.hash("c")];
    const refused = await work.hash("d").catch((e: unknown) => e as AppError);
    expect(refused).toMatchObject({ code: "TOO_MANY_REQUESTS", reason: "PASSWORD_WORK_BUSY" });
    expect((refused as AppError).message).toContain("Try again");
    await expect.poll(held.started).toBe(1);
    while (held.started() > 0) {
      held.releaseAll();
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(accepted);
    const later = work.hash("e");
    await expect.poll(held.started).toBe(1);
    held.releaseAll();
    expect(await later).toBe("hashed:e");
  });
});
