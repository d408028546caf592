// The repository's recent history in a real gVisor sandbox: the run's copy arrives with a .git
// holding the last N commits (real messages and authors, stopping at the bound), no remote and
// no credential helper, and the run's diff is what the agent changed — not the history.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startScriptedModel } from "@secondshift/agent/testing";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { exportHistory, exportTree, fetchRepository } from "@secondshift/repo-sync";
import { createTestRepo } from "@secondshift/repo-sync/testing";
import { createSandboxManager } from "@secondshift/sandbox";
import Docker from "dockerode";
import { describe, expect } from "vitest";
import { executeRun } from "./executor.ts";
import type { SourceProvider } from "./ports.ts";
import { seedRunningRun } from "./testing/fixtures.ts";

const HISTORY = 5;
const policy = {
  outbound: {
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: [],
  },
  allowFileRemotes: true,
};

/** What the worker's source provider does (apps/worker/src/source.ts), over a file:// remote. */
function historySource(cloneUrl: string, workDir: string): SourceProvider {
  return {
    async checkout() {
      const dir = await mkdtemp(join(workDir, "checkout-"));
      const { commit } = await fetchRepository({
        cloneUrl,
        ref: { branch: "main" },
        dir,
        workDir,
        policy,
        depth: HISTORY,
      });
      return {
        commit,
        archive: () => exportTree(dir, commit, { workDir }),
        history: async () => {
          const limits = { maxCommits: HISTORY, maxBytes: 16 * 1024 * 1024 };
          const history = await exportHistory(dir, commit, {
            workDir: dir,
            limits,
            branch: "main",
          });
          return history ? history.archive() : null;
        },
        cleanup: () => Promise.resolve(),
      };
    },
  };
}

function sandboxManager() {
  const masker = new SecretMasker();
  const logger = createLogger({ name: "test", destination: createMemorySink().stream, masker });
  const manager = createSandboxManager({
    docker: new Docker(),
    installationId: "runs-history-test",
    image: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test",
    runtime: "runsc",
    production: true,
    allowRunc: false,
    limits: {
      memoryBytes: 384 * 1024 * 1024,
      nanoCpus: 1_000_000_000,
      pidsLimit: 128,
      nofile: 1024,
      workspaceBytes: 32 * 1024 * 1024,
      tmpBytes: 16 * 1024 * 1024,
    },
    logger,
  });
  return { manager, masker, logger };
}

// Each line is labelled, so the tool result can be read from the model's next request.
const LOOK = [
  `echo "log:[$(git log --format='%an <%ae> %s' | tr '\\n' ';')]"`,
  `echo "remotes:[$(git remote -v)]"`,
  `echo "helpers:[$(git config --get-all credential.helper)]"`,
  `echo "urls:[$(git config --get-regexp 'remote|url|extraheader')]"`,
  `echo "leaks:[$(ls -a .git | grep -E 'FETCH_HEAD|packed-refs|credentials')]"`,
  `echo "status:[$(git status --porcelain)]"`,
  // A change the agent commits itself still belongs to the diff.
  `echo made > agent.txt && git -c user.name=agent -c user.email=agent@localhost add agent.txt`,
  `git -c user.name=agent -c user.email=agent@localhost commit -qm "agent's own commit"`,
].join("; ");

describe("the repository's history in the sandbox", () => {
  test("[C12] git log lists the last commits with their messages and authors, stops at the bound; no remote, no credential helper; the diff is the agent's change", async ({
    db,
    onTestFinished,
  }) => {
    const repo = await createTestRepo();
    const messages: string[] = [];
    for (let i = 1; i <= HISTORY + 3; i++) {
      messages.unshift(`week commit ${i}`);
      await repo.commit({ "README.md": `v${i}\n`, [`f${i}.txt`]: `${i}\n` }, messages[0]);
    }
    const workDir = await mkdtemp(join(tmpdir(), "runs-history-work-"));
    const { run } = await seedRunningRun(db, { timeoutSeconds: 300 });
    const model = await startScriptedModel([
      { reply: { toolCalls: [{ name: "shell", args: { command: LOOK } }] } },
      { reply: { text: "done" } },
    ]);
    onTestFinished(() => model.close());
    const { manager, masker, logger } = sandboxManager();
    const result = await executeRun(
      {
        db,
        logger,
        masker,
        workerId: "w1",
        gatewayUrl: model.baseUrl,
        sandboxes: { create: (o) => manager.create(o) },
        source: historySource(repo.fileUrl, workDir),
        broker: { call: () => Promise.reject(new Error("no plan tools in this run")) },
        freezePlan: () => Promise.resolve({ tools: [] }),
        enqueueReports: () => Promise.resolve(),
        limits: { stopPollMs: 100, heartbeatMs: 500 },
      },
      run.id,
    );
    expect(result.status).toBe("SUCCEEDED");
    const seen = JSON.stringify(model.requests[1]?.body);
    const log = messages
      .slice(0, HISTORY)
      .map((m) => `Test <test@example.test> ${m};`)
      .join("");
    expect(seen).toContain(`log:[${log}]`);
    for (const empty of ["remotes", "helpers", "urls", "leaks", "status"])
      expect(seen).toContain(`${empty}:[]`);

    const saved = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(saved.diff).toContain("+++ b/agent.txt");
    expect(saved.diff).not.toMatch(/README\.md|f\d\.txt/);
  }, 180_000);
});
