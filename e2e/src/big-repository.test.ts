// Big repositories are bounded (C12, issue #11 item 7), through the whole worker: the operator's
// limits (REPOSITORY_MAX_MB / _FILES, here set low) refuse a repository at the run's commit from
// git's metadata before anything is exported; the run fails with a message that names the step,
// the figure and the limit; a repository within the limits streams into the sandbox intact, with
// its recent history bounded by SECONDSHIFT_RUN_HISTORY_COMMITS (here 3) and no remote.
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { runNow } from "@secondshift/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actAs } from "./harness/actor.ts";
import { lastToolResult } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { waitForRunEnd } from "./harness/run-end.ts";
import { seedPlainWorkspace, syncAndApproveAll } from "./harness/seed-plain.ts";
import { createRepository, jobYaml, plantedSecrets } from "./harness/seed.ts";

const MIB = 1024 * 1024;
let p: Platform;
beforeAll(async () => {
  p = await startPlatform({
    repository: { maxBytes: 2 * MIB, maxFiles: 20 },
    history: { maxCommits: 3, maxBytes: 16 * MIB },
  });
  await p.worker.start({ repoSync: false });
});
afterAll(async () => {
  await p?.close();
});

/** A workspace whose one approved job runs on `files` (then `later` commits); the ended run. */
async function runOn(files: Record<string, string>, later: string[] = []) {
  const repo = createRepository({ ".secondshift.yaml": jobYaml([{ key: "look" }]), ...files });
  later.forEach((message, i) => repo.commit({ [`later-${i}.txt`]: `${i}\n` }, message));
  const ws = await seedPlainWorkspace(p, { planted: plantedSecrets(), repoDir: repo.dir });
  await syncAndApproveAll(p, ws);
  const job = await p.t.db.job.findFirstOrThrow({
    where: { workspaceId: ws.workspaceId, key: "look" },
  });
  const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id });
  return waitForRunEnd(p, runId);
}

/** The worker's leftovers of exported trees (the old path wrote one per run). */
const exportedTrees = () => readdirSync(tmpdir()).filter((n) => n.startsWith("secondshift-tree-"));

describe("scenario: big repositories", () => {
  it("[C12] a repository with more files than the operator allows fails the run before anything is copied, naming the limit", async () => {
    const before = exportedTrees();
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f/${i}.txt`, `${i}`]));
    p.model.script([() => ({ text: "never asked" })]);
    const run = await runOn(files);
    expect(run.status).toBe("FAILED");
    expect(run.error).toMatch(
      /^The run failed while fetching the repository and starting the sandbox: The repository at commit [0-9a-f]{12} has 31 files; this server copies at most 20 into a sandbox \(REPOSITORY_MAX_FILES\)\. Nothing was copied\./,
    );
    expect(p.model.requests).toHaveLength(0);
    expect(exportedTrees()).toEqual(before);
  });

  it("[C12] a repository over the byte limit (a small push, a large tree) fails the run the same way", async () => {
    const blob = "b".repeat(MIB);
    const run = await runOn({ "one.txt": blob, "two.txt": blob, "three.txt": blob });
    expect(run.status).toBe("FAILED");
    expect(run.error).toMatch(
      /The repository at commit [0-9a-f]{12} holds 3\.0 MB of files; this server copies at most 2\.0 MB into a sandbox \(REPOSITORY_MAX_MB\)\. Nothing was copied\./,
    );
  });

  it("[C12] a repository within the limits streams into the sandbox intact", async () => {
    p.model.script([
      () => ({
        tool: "shell",
        input: { command: "find . -path ./.git -prune -o -type f -print | sort; cat docs/a.md" },
      }),
      (req) => ({ text: lastToolResult(req) }),
    ]);
    const run = await runOn({ "docs/a.md": "alpha\n", "src/b.ts": "export {};\n" });
    expect(run.status).toBe("SUCCEEDED");
    expect(run.summary).toContain("./.secondshift.yaml\n./docs/a.md\n./src/b.ts\nalpha\n");
  });

  it("[C12] the sandbox's git log holds the last 3 commits through the worker, with no remote or credential helper", async () => {
    p.model.script([
      () => ({
        tool: "shell",
        input: {
          command:
            'git log --format=%s; echo "remotes:[$(git remote -v)] helpers:[$(git config --get-all credential.helper)]"',
        },
      }),
      (req) => ({ text: lastToolResult(req) }),
    ]);
    const run = await runOn({ "docs/a.md": "alpha\n" }, ["monday", "tuesday", "wednesday"]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.summary).toContain("wednesday\ntuesday\nmonday\nremotes:[] helpers:[]");
    expect(run.summary).not.toContain("initial");
  });
});
