// Quick phase timing for the broker's DB work (re-read and audit write), to see where overhead goes.
import { createTestDatabase } from "@secondshift/db/testing";
import { writeAudit } from "@secondshift/access";
import { seedTenant } from "@secondshift/access/testing";
import { readAccessState } from "../src/access-state.ts";
const t = await createTestDatabase();
const tenant = await seedTenant(t.db, "p");
const time = async (label: string, fn: () => Promise<unknown>) => {
  const xs: number[] = [];
  for (let i = 0; i < 300; i++) {
    const s = performance.now();
    await fn();
    xs.push(performance.now() - s);
  }
  xs.sort((a, b) => a - b);
  console.log(label, "p50", xs[150]!.toFixed(3), "ms");
};
await time("re-read", () =>
  readAccessState(t.db, {
    workspaceId: tenant.workspaceId,
    runId: "x",
    grantId: "x",
    connectionId: "x",
    tool: "x",
  }),
);
await time("audit", () =>
  writeAudit(t.db, {
    workspaceId: tenant.workspaceId,
    actorType: "RUN",
    actorId: "r",
    action: "tool.call",
  }),
);
await time("select 1", () => t.db.$queryRaw`SELECT 1`);
await t.drop();
