// The owner's path through the owner API on a deployed stack, as the smoke test drives it: a
// model provider, an MCP connection with its allowed tools, a repository whose committed
// .secondshift.yaml declares two scheduled jobs, the sync, the review and approval, a webhook,
// then rounds of "run now" (one run per job per round, the two jobs' runs at once).
import { randomBytes } from "node:crypto";
import type { TestBrowser } from "@secondshift/api/testing";
import { startFakes } from "./fakes.ts";

const JOB_KEYS = ["echo-a", "echo-b"];
const TERMINAL = new Set([
  "SUCCEEDED",
  "FAILED",
  "CANCELLED",
  "TIMED_OUT",
  "BUDGET_EXHAUSTED",
  "REVOKED",
]);

/**
 * The stack settings the journey needs, for the test's stack only: the fakes listen on plain
 * http on 127.0.0.1, which only development mode with the operator's private-address allowance
 * reaches; the sandbox image the test command built; one run per worker at a time, so that two
 * runs at once go to both workers.
 */
export function journeySettings(): Record<string, string> {
  return {
    SECONDSHIFT_ENV: "development",
    SECONDSHIFT_ALLOWED_PRIVATE_CIDRS: "127.0.0.1/32",
    SANDBOX_IMAGE: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:latest",
    WORKER_CONCURRENCY: "1",
  };
}

function jobsYaml(): string {
  const lines = ["version: 1", "jobs:"];
  for (const key of JOB_KEYS) {
    lines.push(
      `  ${key}:`,
      `    name: Echo ${key}`,
      '    prompt: "Call the echo tool once, then report what it answered."',
      '    schedule: "0 3 * * *"',
      "    tools:",
      "      mcp:",
      "        - label: everything",
      "          required: true",
      "          tools: [echo]",
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * Polls `probe` (every `intervalMs`) until it returns something other than undefined or false,
 * and returns that; a probe that throws ends the wait with its error.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  { timeoutMs = 180_000, intervalMs = 250 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface FinishedRun {
  id: string;
  status: string;
  summary: string | null;
  error: string | null;
}

export interface Journey {
  jobIds: string[];
  /** Secrets the owner handed over (provider key, git token, webhook signing secret). */
  planted: string[];
  /** Runs every job `rounds` times ("run now", both jobs at once); the finished runs. */
  runRounds(rounds: number): Promise<{ runs: FinishedRun[]; jobIds: string[] }>;
  /** Requests the scripted model provider answered. */
  modelRequests(): number;
  /** Bodies of the webhook deliveries received. */
  deliveries(): string[];
  /**
   * Waits for `count` webhook deliveries and for every delivery to be recorded delivered (none
   * can be sent again); the run ids of what the receiver got.
   */
  waitForDeliveries(count: number): Promise<string[]>;
  close(): Promise<void>;
}

type Discover = (ids: {
  workspaceId: string;
  userId: string;
  connectionId: string;
}) => Promise<string[]>;

export async function ownerJourney(
  browser: TestBrowser,
  options: { discover: Discover },
): Promise<Journey> {
  const api = browser.trpc;
  const fakes = await startFakes({ ".secondshift.yaml": jobsYaml(), "README.md": "# Widgets\n" });
  try {
    const me = await api.auth.me.query();
    const workspaceId = me.workspaces[0]!.id;
    const apiKey = `sk-ant-smoke-${randomBytes(12).toString("hex")}`;
    await api.providers.create.mutate({
      workspaceId,
      name: "scripted",
      kind: "ANTHROPIC",
      baseUrl: fakes.modelUrl,
      apiKey,
      defaultModel: "claude-test",
      isDefault: true,
    });
    const mcp = await api.connections.create.mutate({
      workspaceId,
      kind: "MCP",
      label: "everything",
      endpoint: fakes.mcpUrl,
      authType: "NONE",
    });
    const discovered = await options.discover({ workspaceId, userId: me.id, connectionId: mcp.id });
    if (!discovered.includes("echo")) throw new Error(`no echo tool in ${discovered.join(", ")}`);
    await api.connections.setAllowedTools.mutate({
      workspaceId,
      connectionId: mcp.id,
      tools: ["echo"],
    });
    const git = await api.connections.create.mutate({
      workspaceId,
      kind: "GITHUB",
      label: "git",
      endpoint: new URL(fakes.cloneUrl).origin,
      authType: "BEARER",
      credential: fakes.gitToken,
    });
    // Adding the repository queues its first sync.
    await api.repositories.add.mutate({
      workspaceId,
      cloneUrl: fakes.cloneUrl,
      connectionId: git.id,
    });
    const jobs = await waitFor("the synced jobs to wait for approval", async () => {
      const listed = await api.jobs.list.query({ workspaceId });
      const waiting = listed.filter((j) => j.status === "NEEDS_APPROVAL");
      if (waiting.length === JOB_KEYS.length) return waiting;
      const [repo] = await api.repositories.list.query({ workspaceId });
      if (repo?.syncError) throw new Error(`sync failed: ${repo.syncError}`);
      return undefined;
    });
    for (const job of jobs) {
      const review = await api.jobs.review.query({ workspaceId, jobId: job.id });
      const tools = review.groups.flatMap((g) => g.tools);
      if (!tools.every((t) => t.allowedOnConnection))
        throw new Error(`tools not allowed: ${JSON.stringify(review.groups)}`);
      await api.jobs.approve.mutate({
        workspaceId,
        jobId: job.id,
        requestHash: review.job.requestHash,
        bindings: { "MCP:everything": mcp.id },
      });
    }
    const webhook = await api.webhooks.create.mutate({
      workspaceId,
      name: "reports",
      url: fakes.webhookUrl,
    });
    const jobIds = jobs.map((j) => j.id);

    async function finished(runId: string): Promise<FinishedRun> {
      return waitFor(`run ${runId} to end`, async () => {
        const run = await api.runs.get.query({ workspaceId, runId });
        // finishRun writes the final status with the summary: a final run has both.
        return TERMINAL.has(run.status) ? run : undefined;
      });
    }

    return {
      jobIds,
      planted: [apiKey, fakes.gitToken, webhook.secret],
      async runRounds(rounds) {
        const runs: FinishedRun[] = [];
        for (let i = 0; i < rounds; i++) {
          const started = await Promise.all(
            jobIds.map((jobId) => api.jobs.runNow.mutate({ workspaceId, jobId })),
          );
          runs.push(...(await Promise.all(started.map(({ runId }) => finished(runId)))));
        }
        return { runs, jobIds };
      },
      modelRequests: () => fakes.modelRequests.length,
      deliveries: () => fakes.deliveries(),
      async waitForDeliveries(count) {
        // Settled: a worker claims and sends only a PENDING delivery, so once every one is
        // DELIVERED none is sent again and what the receiver got is final.
        await waitFor(`${count} webhook deliveries, each recorded delivered`, async () => {
          if (fakes.deliveries().length < count) return false;
          const { items } = await api.webhooks.deliveries.query({
            workspaceId,
            webhookId: webhook.id,
            limit: 100,
          });
          return items.length >= count && items.every((d) => d.status === "DELIVERED");
        });
        return fakes
          .deliveries()
          .map((body) => (JSON.parse(body) as { run: { id: string } }).run.id);
      },
      close: () => fakes.close(),
    };
  } catch (error) {
    await fakes.close();
    throw error;
  }
}
