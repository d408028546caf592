// The owner's journey in a real browser against the real stack: the built web app (its own
// process) over the same PostgreSQL database, Redis and encryption key as the worker and the
// gateway (in this process, wired as apps/worker and apps/gateway wire them, sandboxes under
// runsc), with the outside world on loopback — a scripted model provider speaking Anthropic's
// wire format, MCP server-everything, a git smart-HTTP server that demands its token, a
// webhook receiver. Every step is a click or a form fill; the database is only read, to wait
// for state and to check what the pages said.
import { randomBytes, randomInt } from "node:crypto";
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import {
  createTestRepo,
  startGitHttpServer,
  type GitHttpServer,
} from "@secondshift/repo-sync/testing";
import {
  launchBrowser,
  mutateAs,
  screenshot,
  seriousA11yViolations,
  startWebApp,
  type WebApp,
} from "@secondshift/web/testing";
import { Redis } from "ioredis";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastToolResult } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { startReceiver } from "./harness/receiver.ts";
import { waitFor, waitForFinishedRun } from "./harness/scenario.ts";

const owner = {
  name: "Jo Journey",
  email: "jo@example.test",
  password: `journey passphrase ${randomBytes(6).toString("hex")}`,
};
const JOB_NAME = "Echo report";
const SUMMARY = "The README has three lines and echo answered.";
/** Waits for state the stack reaches on its own (a sync, a run) on a loaded 2-core machine. */
const SLOW = { timeout: 120_000 };

let p: Platform;
let app: WebApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let mcp: RunningServer;
let git: GitHttpServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const gitToken = `git-journey-${randomBytes(12).toString("hex")}`;
const providerKey = `sk-ant-journey-${randomBytes(12).toString("hex")}`;
/** Filled as the journey goes. */
const ids = { workspace: "", mcpConnection: "", job: "", run: "" };

function jobsYaml(): string {
  return [
    "version: 1",
    "jobs:",
    "  echo-report:",
    `    name: ${JOB_NAME}`,
    '    prompt: "Read the README, count its lines in the sandbox, call echo, then report."',
    '    schedule: "0 3 * * *"',
    "    tools:",
    "      mcp:",
    "        - label: everything",
    "          required: true",
    "          tools: [echo]",
    "",
  ].join("\n");
}

/**
 * A Redis database of its own (index 1–15 of the test Redis, emptied first): the web app's
 * queues use BullMQ's default prefix, so the worker here must share that database and prefix —
 * and nothing another test file left behind.
 */
async function freshRedisUrl(): Promise<string> {
  const url = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  url.pathname = `/${randomInt(1, 16)}`;
  const redis = new Redis(url.toString(), { maxRetriesPerRequest: 1 });
  try {
    await redis.flushdb();
  } finally {
    redis.disconnect();
  }
  return url.toString();
}

async function startGit(): Promise<{ server: GitHttpServer; cloneUrl: string }> {
  const repo = await createTestRepo();
  await repo.commit({
    ".secondshift.yaml": jobsYaml(),
    "README.md": "# Widgets\nline two\nline three\n",
  });
  const server = await startGitHttpServer(`${repo.root}/srv`, {
    username: "x-access-token",
    token: gitToken,
  });
  return { server, cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git` };
}
let cloneUrl = "";

beforeAll(async () => {
  const redisUrl = await freshRedisUrl();
  p = await startPlatform({ redis: { url: redisUrl } });
  [mcp, { server: git, cloneUrl }, receiver] = await Promise.all([
    startEverything("streamableHttp"),
    startGit(),
    startReceiver(`/hooks/journey-${randomBytes(4).toString("hex")}`),
  ]);
  [app, browser] = await Promise.all([
    startWebApp({
      shared: {
        database: { url: p.t.url, db: p.t.db },
        encryptionKeyB64: p.encryptionKeyB64,
        redisUrl,
        // The fakes listen on plain http on 127.0.0.1: development mode with the operator's
        // private-address allowance, as the worker's loopback policy.
        env: { SECONDSHIFT_ENV: "development", SECONDSHIFT_ALLOWED_PRIVATE_CIDRS: "127.0.0.1/32" },
      },
    }),
    launchBrowser(),
  ]);
  await p.worker.start({ repoSync: false });
  context = await browser.newContext({ baseURL: app.origin });
  page = await context.newPage();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await Promise.all([mcp?.stop(), git?.close(), receiver?.close()]);
  await p?.close();
});

async function expectAccessible(name: string): Promise<void> {
  expect(await seriousA11yViolations(page), name).toEqual([]);
  await screenshot(page, `journey-${name}`);
}

/** The model's script for the one run: a file, a sandbox command, the MCP tool, the report. */
function scriptModel(): void {
  p.model.script([
    () => ({ tool: "read_file", input: { path: "README.md" } }),
    (req) => {
      expect(lastToolResult(req)).toContain("Widgets");
      return { tool: "shell", input: { command: "echo from-the-sandbox && wc -l README.md" } };
    },
    (req) => {
      expect(lastToolResult(req)).toContain("from-the-sandbox");
      const echo = (req.body.tools ?? []).map((t) => t.name).find((n) => n.endsWith("echo"));
      return { tool: echo ?? "echo", input: { message: "hello from the journey" } };
    },
    (req) => {
      expect(lastToolResult(req)).toContain("hello from the journey");
      return { text: SUMMARY };
    },
  ]);
}

describe("the owner's journey through the web app", () => {
  it("setup creates the owner and the workspace", async () => {
    await page.goto("/");
    await page.waitForURL("**/setup");
    await expectAccessible("setup");
    await page.getByLabel("Your name").fill(owner.name);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByLabel("Workspace name").fill("Widgets team");
    await page.getByRole("button", { name: "Create account and workspace" }).click();
    await page.waitForURL(/\/w\/[0-9a-f-]{36}$/);
    ids.workspace = /\/w\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    await expect.poll(() => page.getByTestId("signed-in-user").textContent()).toBe(owner.name);
  }, 120_000);

  it("signs out and signs in again", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/sign-in");
    await expectAccessible("sign-in");
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`**/w/${ids.workspace}`);
    await expect.poll(() => page.getByTestId("signed-in-user").textContent()).toBe(owner.name);
    await screenshot(page, "journey-workspace");
  }, 120_000);

  it("adds the model provider", async () => {
    // The providers screen is not in this branch yet: the owner API, as the screen would call it.
    await mutateAs(context, app.origin, "providers.create", {
      workspaceId: ids.workspace,
      name: "scripted",
      kind: "ANTHROPIC",
      baseUrl: p.model.url,
      apiKey: providerKey,
      defaultModel: "claude-test",
      isDefault: true,
    });
    const provider = await p.t.db.modelProvider.findFirstOrThrow({
      where: { workspaceId: ids.workspace },
    });
    expect(provider.isDefault).toBe(true);
  }, 60_000);

  it("adds the MCP connection, discovers its tools and allows echo", async () => {
    await page.goto(`/w/${ids.workspace}/connections`);
    await page
      .getByRole("table", { name: "Connections" })
      .or(page.getByText("No connections"))
      .first()
      .waitFor();
    await page.getByLabel("Name", { exact: true }).fill("everything");
    await page.getByLabel("Endpoint").fill(mcp.url);
    await page.getByRole("button", { name: "Add connection" }).click();
    await page.getByText('Connection "everything" added.').waitFor();
    await page.getByRole("link", { name: "everything" }).click();
    await page.getByRole("heading", { name: "Tools", exact: true }).waitFor();
    await page.getByRole("button", { name: "Discover tools" }).click();
    await page.getByText(/^Found \d+ tools\./).waitFor(SLOW);
    await page.getByRole("checkbox", { name: "echo", exact: true }).check();
    await page.getByRole("button", { name: "Save allowed tools" }).click();
    await page.getByText("Saved: jobs may now use 1 tool on this connection.").waitFor();
    await expectAccessible("connection");
    const connection = await p.t.db.connection.findFirstOrThrow({
      where: { workspaceId: ids.workspace, label: "everything" },
    });
    expect(connection.allowedTools).toEqual(["echo"]);
    ids.mcpConnection = connection.id;
  }, 180_000);

  it("adds the repository through a GitHub token connection; its job waits for approval", async () => {
    await page.goto(`/w/${ids.workspace}/connections`);
    await page.getByLabel("Kind").selectOption({ label: "GitHub" });
    await page.getByLabel("Name", { exact: true }).fill("git");
    await page.getByLabel("Endpoint").fill(new URL(cloneUrl).origin);
    await page.getByLabel("Token", { exact: true }).fill(gitToken);
    await page.getByRole("button", { name: "Add connection" }).click();
    await page.getByText('Connection "git" added.').waitFor();

    await page.goto(`/w/${ids.workspace}/repositories`);
    await page.getByLabel("Clone URL").fill(cloneUrl);
    await page.getByLabel("Fetch through connection").selectOption({ label: "git" });
    await page.getByRole("button", { name: "Add repository" }).click();
    await page.getByText("Repository acme/widgets added; its first sync is queued.").waitFor();
    await screenshot(page, "journey-repository-added");

    // The worker syncs it; the synced job waits for the owner's approval.
    const job = await waitFor(
      "the synced job",
      async () => {
        const repo = await p.t.db.repository.findFirst({ where: { workspaceId: ids.workspace } });
        if (repo?.syncError) throw new Error(`sync failed: ${repo.syncError}`);
        return p.t.db.job.findFirst({ where: { workspaceId: ids.workspace } });
      },
      120_000,
    );
    expect(job.status).toBe("NEEDS_APPROVAL");
    ids.job = job.id;
    await page.reload();
    await page.getByRole("heading", { name: "acme/widgets" }).waitFor();
    await expectAccessible("repositories");
  }, 180_000);

  it("the owner reviews the job's access and approves it", async () => {
    await page.goto(`/w/${ids.workspace}/jobs`);
    await page.getByRole("table", { name: "Jobs" }).waitFor();
    await expectAccessible("jobs");
    await page.getByRole("link", { name: JOB_NAME }).click();
    await page.getByRole("heading", { name: "Access review" }).waitFor();
    // The only MCP connection labelled "everything" is proposed, and echo is allowed on it.
    expect(await page.getByLabel('Connection for MCP server "everything"').inputValue()).toBe(
      ids.mcpConnection,
    );
    await expectAccessible("review");
    await page.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: `Approve "${JOB_NAME}"?` });
    await dialog.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Approved. The job may now run with the access shown.").waitFor();
    const grant = await p.t.db.grant.findFirstOrThrow({
      where: { jobId: ids.job, revokedAt: null },
      include: { tools: true },
    });
    expect(grant.tools.map((t) => `${t.connectionId}:${t.toolName}`)).toEqual([
      `${ids.mcpConnection}:echo`,
    ]);
    await screenshot(page, "journey-approved");
  }, 120_000);

  it("adds the webhook the run reports to", async () => {
    // The webhooks screen is not in this branch yet: the owner API, as the screen would call it.
    await mutateAs(context, app.origin, "webhooks.create", {
      workspaceId: ids.workspace,
      name: "reports",
      url: receiver.url,
    });
    expect(await p.t.db.webhook.count({ where: { workspaceId: ids.workspace } })).toBe(1);
  }, 60_000);

  it("runs the job now; the run succeeds", async () => {
    scriptModel();
    await page.getByRole("button", { name: "Run now" }).click();
    const dialog = page.getByRole("dialog", { name: `Run "${JOB_NAME}" now?` });
    await dialog.getByRole("button", { name: "Run now" }).click();
    await page.getByText(/^Run queued/).waitFor();
    const run = await waitForFinishedRun(p, { jobId: ids.job }, 180_000);
    ids.run = run.id;
    expect(run).toMatchObject({ status: "SUCCEEDED", trigger: "MANUAL", summary: SUMMARY });
    const events = await p.t.db.runEvent.findMany({ where: { runId: run.id } });
    expect(events.filter((e) => e.type === "tool_call")).toHaveLength(3);
    expect(JSON.stringify(events)).toContain("from-the-sandbox");
  }, 240_000);

  it("the webhook delivery arrives once", async () => {
    await waitFor(
      "the webhook delivery",
      () => Promise.resolve(receiver.received.length > 0),
      120_000,
    );
    const body = JSON.parse(receiver.received[0]!.body) as { run: { id: string; status: string } };
    const delivery = await waitFor("the delivery recorded as delivered", () =>
      p.t.db.webhookDelivery.findFirst({ where: { runId: ids.run, status: "DELIVERED" } }),
    );
    expect(delivery.attemptCount).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(body.run).toMatchObject({ id: ids.run, status: "succeeded" });
  }, 180_000);

  it("the audit log records every step", async () => {
    const actions = new Set(
      (await p.t.db.auditEvent.findMany({ where: { workspaceId: ids.workspace } })).map(
        (e) => e.action,
      ),
    );
    // Setup and sign-in are not audit events (sessions are listed on the account page).
    expect([...actions].sort()).toEqual([
      "connection.created",
      "connection.tools_allowed",
      "connection.tools_discovered",
      "job.approved",
      "job.created",
      "provider.created",
      "repository.added",
      "run.requested",
      "tool.call",
      "webhook.created",
    ]);
  }, 60_000);

  it("no secret the owner typed reaches a page", async () => {
    for (const path of ["connections", "repositories", `jobs/${ids.job}`]) {
      await page.goto(`/w/${ids.workspace}/${path}`);
      await page.locator("main").waitFor();
      const html = await page.content();
      for (const secret of [gitToken, providerKey, p.encryptionKeyB64]) {
        expect(html.includes(secret), `${path}`).toBe(false);
      }
    }
  }, 120_000);
});
