// The list procedures at scale: one workspace with 10,000 runs and 100,000 audit events
// (bulk-inserted with SQL, ids time-ordered like the UUID v7 the app writes), then runs.list and
// audit.list over real HTTP with a signed-in viewer's cookie: the first page, a deep cursor page
// (half-way down) and a filtered page, each timed end to end (request → parsed JSON).
import { createUser } from "@secondshift/accounts/testing";
import type { Db } from "@secondshift/db";
import superjson from "superjson";
import { seedWorkspace } from "../../db/src/testing/seed.ts";
import type { TestApi } from "../src/testing/index.ts";
import { PASSWORD, quantile, timed } from "./figures.ts";

export const RUNS = 10_000;
export const AUDIT_EVENTS = 100_000;
const JOBS = 20;

/** A UUID v7-shaped text id from a timestamp expression (SQL), so id order is time order. */
const v7 = (ts: string) => `(SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' ||
  substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-' || substr(h, 21, 12)
  FROM (SELECT lpad(to_hex((extract(epoch FROM ${ts}) * 1000)::bigint), 12, '0') ||
               md5(random()::text || g::text) AS h) AS x)`;

export async function seedLists(db: Db) {
  const seed = await seedWorkspace(db, { name: "bench" });
  for (let j = 1; j < JOBS; j++) {
    await db.job.create({
      data: {
        workspaceId: seed.workspaceId,
        repositoryId: seed.repositoryId,
        key: `job-${j}`,
        name: `Job ${j}`,
        prompt: "Do the thing.",
        tokenBudget: 10_000,
        timeoutSeconds: 60,
        requestedTools: [],
        requestHash: "h",
        configCommit: "0".repeat(40),
      },
    });
  }
  const jobs = (await db.job.findMany({ where: { workspaceId: seed.workspaceId } })).map(
    (j) => j.id,
  );
  const started = performance.now();
  await db.$executeRawUnsafe(
    `INSERT INTO "Run" ("id", "workspaceId", "jobId", "trigger", "status", "budgetTokens",
                        "tokensUsed", "queuedAt", "startedAt", "finishedAt", "lastEventSeq")
     SELECT ${v7("q")}, $1, ($2::text[])[1 + g % ${JOBS}], 'SCHEDULE',
            (ARRAY['SUCCEEDED','SUCCEEDED','SUCCEEDED','FAILED','CANCELLED'])[1 + g % 5]::"RunStatus",
            100000, g % 90000, q, q + interval '5 seconds', q + interval '65 seconds', -1
     FROM (SELECT g, timestamptz '2026-01-01' + g * interval '1 minute' AS q
           FROM generate_series(1, ${RUNS}) AS g) AS s`,
    seed.workspaceId,
    jobs,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO "AuditEvent" ("id", "workspaceId", "actorType", "actorId", "action", "toolName",
                               "outcome", "durationMs", "createdAt")
     SELECT ${v7("c")}, $1, 'RUN', 'run-' || (g % ${RUNS}),
            CASE WHEN g % 50 = 0 THEN 'run.requested' ELSE 'tool.call' END,
            'search', 'ok', g % 900, c
     FROM (SELECT g, timestamptz '2026-01-01' + g * interval '6 seconds' AS c
           FROM generate_series(1, ${AUDIT_EVENTS}) AS g) AS s`,
    seed.workspaceId,
  );
  await db.$executeRawUnsafe(`ANALYZE "Run"; `);
  await db.$executeRawUnsafe(`ANALYZE "AuditEvent"`);
  return { seed, seedMs: performance.now() - started };
}

export interface ListFigures {
  name: string;
  p50: number;
  p95: number;
  rows: number;
}

export async function benchLists(db: Db, api: TestApi, times = 50): Promise<ListFigures[]> {
  const { seed } = await seedLists(db);
  const viewer = await createUser(db, PASSWORD, { workspaceId: seed.workspaceId, role: "VIEWER" });
  const browser = api.browser();
  await browser.trpc.auth.signIn.mutate({ email: viewer.email, password: PASSWORD });
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const query = async (path: string, input: Record<string, unknown>) => {
    const encoded = encodeURIComponent(
      JSON.stringify(superjson.serialize({ workspaceId: seed.workspaceId, limit: 50, ...input })),
    );
    const response = await fetch(`${api.base}/${path}?input=${encoded}`, { headers: { cookie } });
    const body = (await response.json()) as { result?: { data?: { json?: { items: unknown[] } } } };
    const items = body.result?.data?.json?.items;
    if (!items) throw new Error(`${path} failed: ${JSON.stringify(body).slice(0, 300)}`);
    return items.length;
  };
  const middle = async (table: "run" | "auditEvent", total: number) => {
    const where = { workspaceId: seed.workspaceId };
    const args = { where, orderBy: { id: "desc" as const }, skip: total / 2, select: { id: true } };
    const row =
      table === "run" ? await db.run.findFirst(args) : await db.auditEvent.findFirst(args);
    return row!.id;
  };
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ["runs.list first page", "runs.list", {}],
    ["runs.list deep page (5,000 down)", "runs.list", { cursor: await middle("run", RUNS) }],
    ["runs.list status FAILED", "runs.list", { status: ["FAILED"] }],
    ["audit.list first page", "audit.list", {}],
    [
      "audit.list deep page (50,000 down)",
      "audit.list",
      { cursor: await middle("auditEvent", AUDIT_EVENTS) },
    ],
    ["audit.list action run.requested", "audit.list", { action: "run.requested" }],
  ];
  const figures: ListFigures[] = [];
  for (const [name, path, input] of cases) {
    const rows = await query(path, input); // warm-up, and the row count
    const durations = await timed(times, () => query(path, input));
    figures.push({ name, rows, p50: quantile(durations, 0.5), p95: quantile(durations, 0.95) });
  }
  return figures;
}
