// The broker's two per-call queries next to the round-trip floor, to see where overhead goes:
// `npx tsx bench/phases.ts` (needs TEST_DATABASE_URL). Each query runs after a short pause, as
// in a run (PostgreSQL's backend is idle between calls, which costs more than the query).
import { randomUUID } from "node:crypto";
import { approveJob, freezePlan, upsertJobsFromConfig, writeAudit } from "@secondshift/access";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "@secondshift/access/testing";
import { createTestDatabase } from "@secondshift/db/testing";
import pg from "pg";
import { readAccessState } from "../src/access-state.ts";

const ROUNDS = 500;
const PAUSE_MS = 2;

const t = await createTestDatabase();
const pool = new pg.Pool({ connectionString: t.url, max: 1 });
try {
  const tenant = await seedTenant(t.db, "p");
  const ctx = { db: t.db, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId };
  const connectionId = await seedConnection(t.db, testKeyring(), tenant, {
    kind: "MCP",
    label: "svc",
    tools: [tool("echo")],
    allowed: ["echo"],
    credential: "phase-bearer-token-123",
  });
  const { jobs } = await upsertJobsFromConfig(t.db, {
    workspaceId: tenant.workspaceId,
    repositoryId: tenant.repositoryId,
    commit: "phases",
    jobs: [job("phases", [{ kind: "MCP", label: "svc", required: true, tools: ["echo"] }])],
  });
  const jobId = jobs[0]!.jobId;
  const { requestHash } = await t.db.job.findUniqueOrThrow({ where: { id: jobId } });
  await approveJob({ ...ctx, jobId, requestHash });
  const runId = await createRun(t.db, tenant.workspaceId, jobId);
  await freezePlan(t.db, { workspaceId: tenant.workspaceId, runId });
  const { plan } = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  const ids = {
    workspaceId: tenant.workspaceId,
    runId,
    grantId: (plan as { grantId: string }).grantId,
    connectionId,
    tool: "echo",
  };
  const audit = [tenant.workspaceId, runId, "echo", connectionId, "ok", 3];
  const phases: Record<string, () => Promise<unknown>> = {
    "round trip floor (SELECT 1, pool)": () =>
      pool.query({ name: "phases_floor", text: "SELECT 1", values: [] }),
    "access re-read (pool, prepared)": () => readAccessState(t.db, ids, pool),
    "audit insert (pool, prepared)": () =>
      pool.query({
        name: "phases_audit",
        text: `INSERT INTO "AuditEvent" ("id", "workspaceId", "actorType", "actorId", "action", "toolName", "connectionId", "outcome", "durationMs", "createdAt")
               VALUES ($1, $2, 'RUN', $3, 'tool.call', $4, $5, $6, $7, now())`,
        values: [randomUUID(), ...audit],
      }),
    "access re-read (Prisma)": () => readAccessState(t.db, ids),
    "audit insert (Prisma)": () =>
      writeAudit(t.db, {
        workspaceId: tenant.workspaceId,
        actorType: "RUN",
        actorId: runId,
        action: "tool.call",
        toolName: "echo",
        connectionId,
        outcome: "ok",
        durationMs: 3,
      }),
  };
  const times = new Map<string, number[]>();
  for (let i = 0; i < ROUNDS; i++) {
    for (const [label, fn] of Object.entries(phases)) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      const started = performance.now();
      await fn();
      const list = times.get(label) ?? [];
      list.push(performance.now() - started);
      times.set(label, list);
    }
  }
  console.log(`broker phases: ${ROUNDS} rounds, ${PAUSE_MS} ms pause before each query`);
  for (const [label, xs] of times) {
    xs.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(36)} p50 ${xs[xs.length >> 1]!.toFixed(3)} ms`);
  }
} finally {
  await pool.end();
  await t.drop();
}
