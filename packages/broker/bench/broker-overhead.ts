// npm run bench:broker — the broker's own overhead per call (plan check; one database
// statement that writes this call's audit row ahead as 'started' and re-reads the access
// state; validation; decryption; one statement that writes the call's outcome) over 1,000
// calls to server-everything on loopback, next to direct MCP SDK calls to the same server in
// the same process. Two overhead figures: the broker call minus the time inside the connector
// (the broker's own work), and the broker call minus the direct SDK call of the same iteration
// (also counts what the connector path adds or saves: netguard, the session pool, credentials
// on each request).
// Needs TEST_DATABASE_URL (a throwaway PostgreSQL), like the tests.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { approveJob, setAllowedTools } from "@secondshift/domain";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import { freezePlan } from "../src/plan.ts";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
} from "@secondshift/domain/testing";
import { createConnectors, outboundFromNetguard, type Connector } from "@secondshift/connectors";
import { createTestDatabase } from "@secondshift/db/testing";
import { createLogger } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createBroker } from "../src/broker.ts";
import { listConnectionTools } from "../src/discovery.ts";

const CALLS = 1000;
const WARMUP = 50;
const FLOOR_ROUNDS = 300;
// Calls start on a settled event loop: a call's tail (the end of its response stream, socket
// reads) must not land in the next call's window. An agent's tool calls are a model turn apart.
const PAUSE_MS = 2;

const port = await new Promise<number>((resolve) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const address = s.address();
    s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
  });
});
const entry = join(
  dirname(
    createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json"),
  ),
  "dist",
  "index.js",
);
const server = spawn(process.execPath, [entry, "streamableHttp"], {
  env: { ...process.env, PORT: String(port) },
  stdio: ["ignore", "ignore", "pipe"],
});
await new Promise<void>((resolve, reject) => {
  let seen = "";
  server.stderr.on("data", (c: Buffer) => {
    seen += c.toString();
    if (/listening on port|running on port/i.test(seen)) resolve();
  });
  server.once("exit", () => reject(new Error("server-everything exited")));
});
const url = `http://127.0.0.1:${port}/mcp`;

const t = await createTestDatabase();
try {
  const logger = createLogger({ name: "bench", level: "error" });
  const outbound = outboundFromNetguard(
    createOutboundClient({
      production: false,
      allowHttp: true,
      allowedPrivateHosts: [],
      allowedPrivateCidrs: ["127.0.0.0/8"],
      timeoutMs: 30_000,
    }),
  );
  const real = createConnectors({
    outbound,
    logger,
    clientInfo: { name: "secondshift-bench", version: "0" },
  });
  // Time spent inside the connector, so the broker's own share can be separated out.
  let connectorMs = 0;
  const timed: Connector = {
    ...real.MCP,
    kind: "MCP",
    listTools: (...a) => real.MCP.listTools(...a),
    async callTool(...a) {
      const s = performance.now();
      try {
        return await real.MCP.callTool(...a);
      } finally {
        connectorMs = performance.now() - s;
      }
    },
  };
  const keyring = testKeyring();
  const tenant = await seedTenant(t.db, "bench");
  const ctx = { db: t.db, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId };
  const connectionId = await seedConnection(t.db, keyring, tenant, {
    kind: "MCP",
    label: "everything",
    endpoint: url,
    tools: [],
    allowed: [],
    credential: "bench-bearer-token-123",
  });
  await listConnectionTools({
    ...ctx,
    keyring,
    connectors: { MCP: timed },
    connectionId,
    timeoutMs: 10_000,
  });
  await setAllowedTools(ctx, { connectionId, tools: ["echo"] });
  const { jobs } = await upsertJobsFromConfig(t.db, {
    workspaceId: tenant.workspaceId,
    repositoryId: tenant.repositoryId,
    commit: "bench",
    jobs: [job("bench", [{ kind: "MCP", label: "everything", required: true, tools: ["echo"] }])],
  });
  const jobId = jobs[0]!.jobId;
  await approveJob(ctx, {
    jobId,
    requestHash: (await t.db.job.findUniqueOrThrow({ where: { id: jobId } })).requestHash,
  });
  const runId = await createRun(t.db, tenant.workspaceId, jobId);
  await freezePlan(t.db, { workspaceId: tenant.workspaceId, runId });
  // As in the worker: Prisma and the prepared per-call statements share one pg pool.
  const pool = t.pool;
  const broker = createBroker({
    db: t.db,
    pool,
    keyring,
    connectors: { MCP: timed },
    logger,
    limits: {
      timeoutMs: 10_000,
      maxResultBytes: 100_000,
      maxStringLength: 10_000,
      maxArrayItems: 1000,
    },
  });
  const run = { id: runId, workspaceId: tenant.workspaceId, jobId, repositoryFullName: null };

  const sdk = new Client({ name: "bench-direct", version: "0" });
  await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));

  const total: number[] = [];
  const overhead: number[] = [];
  const connector: number[] = [];
  const direct: number[] = [];
  const versusDirect: number[] = [];
  const pause = () => new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  for (let i = 0; i < WARMUP + CALLS; i++) {
    await pause();
    const s1 = performance.now();
    await broker.call(run, "echo", { message: `hello ${i}` });
    const brokerMs = performance.now() - s1;
    await pause();
    const s2 = performance.now();
    await sdk.callTool({ name: "echo", arguments: { message: `hello ${i}` } });
    const directMs = performance.now() - s2;
    if (i >= WARMUP) {
      total.push(brokerMs);
      overhead.push(brokerMs - connectorMs);
      connector.push(connectorMs);
      direct.push(directMs);
      versusDirect.push(brokerMs - directMs);
    }
  }
  // One round trip to the broker's PostgreSQL backend at the same pace: the broker's call
  // replaced by SELECT 1 on its pool, then an SDK call in place of the connector's. This part
  // of the overhead comes with any database check per call on this machine (a backend that has
  // been idle for a while answers far more slowly than one that was just busy).
  // A second SDK client: this SDK version leaks an abort listener per call and warns past 1,500.
  const sdk2 = new Client({ name: "bench-floor", version: "0" });
  await sdk2.connect(new StreamableHTTPClientTransport(new URL(url)));
  const floor: number[] = [];
  for (let i = 0; i < WARMUP + FLOOR_ROUNDS; i++) {
    await pause();
    const s = performance.now();
    await pool.query({ name: "bench_floor", text: "SELECT 1", values: [] });
    if (i >= WARMUP) floor.push(performance.now() - s);
    await sdk2.callTool({ name: "echo", arguments: { message: `floor ${i}` } });
    await pause();
    await sdk2.callTool({ name: "echo", arguments: { message: `floor ${i}` } });
  }
  await sdk2.close();
  const pct = (xs: number[], p: number) =>
    [...xs]
      .sort((x, y) => x - y)
      [Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(3);
  console.log(
    `broker bench: ${CALLS} calls to server-everything (streamable HTTP, loopback), after ${WARMUP} warm-up calls, ${PAUSE_MS} ms apart`,
  );
  console.log(
    "  each broker call includes its two database statements: its audit row ahead with the access re-read, then its outcome",
  );
  console.log(
    `  broker overhead (call minus connector time):  p50 ${pct(overhead, 50)} ms  p99 ${pct(overhead, 99)} ms  (target p50 <= 2 ms)`,
  );
  console.log(
    `  broker call minus direct SDK call (paired):   p50 ${pct(versusDirect, 50)} ms  p99 ${pct(versusDirect, 99)} ms  (target p50 <= 2 ms)`,
  );
  console.log(
    `  broker call end to end:                       p50 ${pct(total, 50)} ms  p99 ${pct(total, 99)} ms`,
  );
  console.log(
    `  connector call (MCP SDK over netguard):       p50 ${pct(connector, 50)} ms  p99 ${pct(connector, 99)} ms`,
  );
  console.log(
    `  direct SDK call (same server, global fetch):  p50 ${pct(direct, 50)} ms  p99 ${pct(direct, 99)} ms`,
  );
  console.log(
    `  PostgreSQL round trip at the same pace:       p50 ${pct(floor, 50)} ms  p99 ${pct(floor, 99)} ms  (SELECT 1 on the broker's pool; part of the overhead)`,
  );
  const rows = await t.db.auditEvent.groupBy({
    by: ["outcome"],
    where: { actorId: runId },
    _count: true,
  });
  console.log(`  audit rows: ${rows.map((r) => `${r._count} ${String(r.outcome)}`).join(", ")}`);
  await sdk.close();
  await real.MCP.close?.();
} finally {
  await t.drop();
  server.kill("SIGTERM");
}
