import { dbTest as test } from "@secondshift/db/testing/vitest";
import { expect } from "vitest";
import { createReplayGuard } from "./replay-guard.ts";

const now = new Date("2026-11-30T12:00:00Z");

test("[P08] refuses a second use of the same signature within its window, forgets it afterwards", async ({
  db,
  seed,
}) => {
  const guard = createReplayGuard(db, { windowSeconds: 300 });
  const a = { key: "sig-a", workspaceId: seed.workspaceId };
  expect(await guard.firstUse(a, now)).toBe(true);
  expect(await guard.firstUse(a, new Date(now.getTime() + 299_000))).toBe(false);
  expect(await guard.firstUse({ ...a, key: "sig-b" }, now)).toBe(true);
  expect(await guard.firstUse(a, new Date(now.getTime() + 601_000))).toBe(true);
  // Expired entries are pruned as new ones arrive.
  expect(await db.inboundDelivery.count()).toBe(1);
});

test("[P08] a replay is refused by another web process and after a restart", async ({
  db,
  seed,
}) => {
  const delivery = { key: "sig-c", workspaceId: seed.workspaceId };
  const first = createReplayGuard(db, { windowSeconds: 300 });
  const second = createReplayGuard(db, { windowSeconds: 300 });
  expect(await first.firstUse(delivery, now)).toBe(true);
  expect(await second.firstUse(delivery, now)).toBe(false);
  const afterRestart = createReplayGuard(db, { windowSeconds: 300 });
  expect(await afterRestart.firstUse(delivery, new Date(now.getTime() + 60_000))).toBe(false);
});

test("[P08] concurrent first uses of one delivery: exactly one is accepted", async ({
  db,
  seed,
}) => {
  const guards = Array.from({ length: 8 }, () => createReplayGuard(db, { windowSeconds: 300 }));
  const results = await Promise.all(
    guards.map((g) => g.firstUse({ key: "sig-d", workspaceId: seed.workspaceId }, now)),
  );
  expect(results.filter(Boolean)).toHaveLength(1);
});
