// The broker's per-call statements next to the round-trip floor, to see where overhead goes:
// `npx tsx bench/phases.ts` (needs TEST_DATABASE_URL). Each statement runs after a short pause,
// as in a run (PostgreSQL's backend is idle between calls, which costs more than the query).
// The call statement carries the previous round's completion, as in a steady stream of calls.
import { approveJob, freezePlan, upsertJobsFromConfig } from "@secondshift/access";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "@secondshift/access/testing";
import { createLogger } from "@secondshift/logging";
import { createTestDatabase } from "@secondshift/db/testing";
import pg from "pg";
import { openCall } from "../src/access-state.ts";
import { AuditQueue, auditId, brokerSql, type AuditWrite, type Sql } from "../src/audit.ts";

const ROUNDS = 500;
const PAUSE_MS = 2;

const t = await createTestDatabase();
const pool = new pg.Pool({ connectionString: t.url, max: 1 });
pool.on("error", () => undefined);
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
  await approveJob(ctx, { jobId, requestHash });
  const runId = await createRun(t.db, tenant.workspaceId, jobId);
  await freezePlan(t.db, { workspaceId: tenant.workspaceId, runId });
  const { plan } = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
  const ids = {
    workspaceId: tenant.workspaceId,
    runId,
    grantId: (plan as { grantId: string }).grantId,
    connectionId,
    tool: "echo",
    toolName: "echo",
  };
  const key = { runId, workspaceId: tenant.workspaceId };
  const logger = createLogger({ name: "phases", level: "error" });
  // One queue per path, so each call statement carries the previous one's completion.
  const caller = (sql: Sql) => {
    let previous: AuditWrite | null = null;
    return async () => {
      const id = auditId();
      await openCall(sql, { ...ids, auditId: id, previous });
      previous = { id, toolName: "echo", connectionId, outcome: "ok", durationMs: 3 };
    };
  };
  const recorder = (sql: Sql) => {
    const queue = new AuditQueue(sql, 60_000, logger);
    return () =>
      queue.record(key, {
        id: auditId(),
        toolName: "echo",
        connectionId,
        outcome: "NOT_IN_PLAN",
        durationMs: 0,
      });
  };
  const viaPool = brokerSql(t.db, pool);
  const viaPrisma = brokerSql(t.db);
  const phases: Record<string, () => Promise<unknown>> = {
    "round trip floor (SELECT 1, pool)": () =>
      pool.query({ name: "phases_floor", text: "SELECT 1", values: [] }),
    "call statement (pool, prepared)": caller(viaPool),
    "record statement (pool, prepared)": recorder(viaPool),
    "call statement (Prisma)": caller(viaPrisma),
    "record statement (Prisma)": recorder(viaPrisma),
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
  console.log(`broker phases: ${ROUNDS} rounds, ${PAUSE_MS} ms pause before each statement`);
  for (const [label, xs] of times) {
    xs.sort((a, b) => a - b);
    console.log(`  ${label.padEnd(36)} p50 ${xs[xs.length >> 1]!.toFixed(3)} ms`);
  }
} finally {
  await pool.end();
  await t.drop();
}
