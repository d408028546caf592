// Applying a 50-file pull request, ten times (a fresh output of a fresh, ended run each), against
// the loopback GitHub fakes answering every call after 30 ms: the wall time from the apply's
// start (the run has ended) to the pull request being recorded APPLIED, and the calls each one
// made — to GitHub's API (counted on the fake) and the token's mint and revoke, listed apart.
// One untimed warm-up apply goes first (module and connection set-up).
//   npm run bench:outputs -w @secondshift/outputs
// Needs TEST_DATABASE_URL (a throwaway PostgreSQL), like the tests: it creates its own
// database from the migrated template and drops it at the end.
import { createTestDatabase, seedWorkspace } from "@secondshift/db/testing";
import type { Prisma } from "@secondshift/db";
import type { PullRequestFile } from "@secondshift/vocabulary";
import { applyOutput } from "../src/apply/apply-output.ts";
import { connectGithubApp, seedOutput, startApplyFixture } from "../src/testing/apply-fixture.ts";

const FILES = 50;
const RUNS = 10;
const LATENCY_MS = 30;

const baseFiles = Object.fromEntries(
  Array.from({ length: FILES }, (_, i) => [
    `src/module-${i}.ts`,
    `export const value${i} = ${i};\n`.repeat(40),
  ]),
);

function changes(run: number): PullRequestFile[] {
  return Array.from({ length: FILES }, (_, i) => {
    const path = i < 40 ? `src/module-${i}.ts` : `src/added-${run}-${i}.ts`;
    const content = `export const value${i} = ${i + run + 1};\n`.repeat(40);
    return {
      path,
      status: i < 40 ? "modified" : "added",
      mode: "100644",
      content,
      additions: 40,
      deletions: i < 40 ? 40 : 0,
      patch: "",
    };
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const database = await createTestDatabase();
const fx = await startApplyFixture(database.db);
try {
  const seed = await seedWorkspace(database.db);
  await connectGithubApp(database.db, seed, fx.app);
  const baseSha = fx.pulls.seedBase(baseFiles);
  fx.pulls.latencyMs = LATENCY_MS;

  async function applyOne(run: number) {
    const output = await seedOutput(database.db, seed, {
      kind: "pull_request",
      payload: {
        title: `Bench pull request ${run}`,
        body: "Fifty files.",
        draft: false,
        labels: ["secondshift"],
        baseSha,
        baseBranch: "main",
        headBranch: `secondshift/bench-${run}`,
        files: changes(run),
      } as unknown as Prisma.InputJsonObject,
    });
    const before = {
      api: fx.pulls.calls.length,
      mints: fx.app.mints.length,
      revokes: fx.app.revoked.length,
    };
    const start = performance.now();
    const result = await applyOutput(fx.deps, { outputId: output.id });
    const ms = performance.now() - start;
    if (result.status !== "applied" || !result.created)
      throw new Error(`run ${run}: ${JSON.stringify(result)}`);
    return {
      ms,
      api: fx.pulls.calls.length - before.api,
      mint: fx.app.mints.length - before.mints,
      revoke: fx.app.revoked.length - before.revokes,
    };
  }

  await applyOne(0);
  const rows = [];
  for (let run = 1; run <= RUNS; run++) rows.push(await applyOne(run));

  console.log(
    `apply a ${FILES}-file pull request, ${RUNS} times, fake GitHub latency ${LATENCY_MS} ms per call\n`,
  );
  console.log("run   wall ms   API calls   mint   revoke   total calls");
  rows.forEach((r, i) =>
    console.log(
      `${String(i + 1).padStart(3)}   ${r.ms.toFixed(0).padStart(7)}   ${String(r.api).padStart(9)}   ${String(r.mint).padStart(4)}   ${String(r.revoke).padStart(6)}   ${String(r.api + r.mint + r.revoke).padStart(11)}`,
    ),
  );
  const sorted = rows.map((r) => r.ms).sort((a, b) => a - b);
  const calls = rows.map((r) => r.api + r.mint + r.revoke);
  console.log(
    `\np50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms; calls per pull request ${Math.min(...calls)}–${Math.max(...calls)} (API ${rows[0]?.api}, mint ${rows[0]?.mint}, revoke ${rows[0]?.revoke})`,
  );
  console.log(
    `API calls of the last: ${fx.pulls.calls
      .slice(-(rows.at(-1)?.api ?? 0))
      .map((c) => `${c.method} ${c.path.replace(`/repos/acme/app/`, "")}`)
      .join(", ")}`,
  );
} finally {
  await fx.close();
  await database.drop();
}
