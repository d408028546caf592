// The owner's journey in a real browser against the real stack: the built web app (its own
// process) over the same PostgreSQL database, Redis and encryption key as the worker and the
// gateway (in this process, wired as apps/worker and apps/gateway wire them, sandboxes under
// runsc), with the outside world on loopback — a scripted model provider speaking Anthropic's
// wire format, MCP server-everything, a git smart-HTTP server that demands its token, a
// webhook receiver. Every step is a click or a form fill; the database is only read, to wait
// for state and to check what the pages said.
import { randomBytes } from "node:crypto";
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import {
  createTestRepo,
  startGitHttpServer,
  type GitHttpServer,
} from "@secondshift/repo-sync/testing";
import {
  claimRedisDatabase,
  type RedisDatabase,
  launchBrowser,
  LOOPBACK_ALLOWED,
  screenshot,
  seriousA11yViolations,
  startWebApp,
  type WebApp,
} from "@secondshift/web/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastToolResult } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { startReceiver } from "./harness/receiver.ts";
import { everywhere, findLeaks, waitFor, waitForFinishedRun } from "./harness/scenario.ts";

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
let webhookSecret = "";

/** The repository's job: no schedule, so that no fire can start a second run mid-journey. */
function jobsYaml(): string {
  return [
    "version: 1",
    "jobs:",
    "  echo-report:",
    `    name: ${JOB_NAME}`,
    '    prompt: "Read the README, count its lines in the sandbox, call echo, then report."',
    "    tools:",
    "      mcp:",
    "        - label: everything",
    "          required: true",
    "          tools: [echo]",
    "",
  ].join("\n");
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
let redis: RedisDatabase | undefined;

beforeAll(async () => {
  // The web app's queues use BullMQ's default prefix: the worker here shares its Redis
  // database (one of its own, emptied first) and that prefix.
  redis = await claimRedisDatabase();
  p = await startPlatform({ redis: { url: redis.url } });
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
        redisUrl: redis.url,
      },
      // The fakes listen on plain http on loopback: development mode with the operator's
      // private-address allowance, as the worker's loopback policy.
      env: LOOPBACK_ALLOWED,
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
  await redis?.release();
});

async function expectAccessible(name: string): Promise<void> {
  expect(await seriousA11yViolations(page), name).toEqual([]);
  await screenshot(page, `journey-${name}`);
}

/**
 * The model's script for the one run: a file, a sandbox command, the MCP tool, the report. Its
 * first answer waits for `release()`.
 */
function scriptModel(): { release(): void } {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  p.model.script([
    async () => {
      await released;
      return { tool: "read_file", input: { path: "README.md" } };
    },
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
  return { release };
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

  it("adds the model provider; its key is never shown", async () => {
    await page.goto(`/w/${ids.workspace}/providers`);
    await page.getByText("No model provider yet").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("scripted");
    await page.getByLabel("Base URL").fill(p.model.url);
    await page.getByLabel("Default model").fill("claude-test");
    await page.getByLabel("API key").fill(providerKey);
    await page.getByLabel("Use for jobs that name no provider").check();
    await page.getByRole("button", { name: "Add provider" }).click();
    await page.getByText("scripted was added; its key is stored encrypted").waitFor();
    await page.getByRole("table", { name: "Model providers" }).getByText("scripted").waitFor();
    expect(await page.content()).not.toContain(providerKey);
    await expectAccessible("providers");
    const provider = await p.t.db.modelProvider.findFirstOrThrow({
      where: { workspaceId: ids.workspace },
    });
    expect(provider).toMatchObject({ kind: "ANTHROPIC", isDefault: true });
  }, 120_000);

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
    // Adding it lists its tools at once (the connection's first discovery).
    await page.getByText(/^Connection "everything" added\. Found \d+ tools/).waitFor(SLOW);
    await page.getByRole("link", { name: "everything" }).click();
    await page.getByRole("heading", { name: "Tools", exact: true }).waitFor();
    await page.getByRole("button", { name: "Discover tools again" }).waitFor();
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
    // The job has no schedule: nothing to pause, and no "Schedule on" badge to puzzle over.
    expect(await page.getByRole("button", { name: "Pause schedule" }).count()).toBe(0);
    expect(await page.getByText("Schedule on").count()).toBe(0);
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

  it("adds the webhook the run reports to; its secret is shown once", async () => {
    await page.goto(`/w/${ids.workspace}/webhooks`);
    await page.getByText("No webhooks yet").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("reports");
    await page.getByLabel("Receiver URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = page.getByLabel("Signing secret");
    await secret.waitFor();
    webhookSecret = await secret.inputValue();
    expect(webhookSecret.length).toBeGreaterThan(20);
    await page.getByRole("table", { name: "Webhooks" }).getByText("reports").waitFor();
    await screenshot(page, "journey-webhook-added");
    expect(await p.t.db.webhook.count({ where: { workspaceId: ids.workspace } })).toBe(1);
  }, 120_000);

  it("runs the job now; the transcript streams live to success", async () => {
    const firstTurn = scriptModel();
    await page.goto(`/w/${ids.workspace}/jobs/${ids.job}`);
    await page.getByRole("button", { name: "Run now" }).click();
    const dialog = page.getByRole("dialog", { name: `Run "${JOB_NAME}" now?` });
    await dialog.getByRole("button", { name: "Run now" }).click();
    // "Run now" opens the new run's page.
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    ids.run = /\/runs\/([0-9a-f-]{36})$/.exec(page.url())![1]!;

    // The model holds its first answer until the page is open on the running run: what follows
    // reaches the page through the live stream.
    await expect.poll(() => page.getByTestId("run-status").textContent(), SLOW).toBe("Running");
    await page.getByTestId("stream-state").getByText("Live").waitFor(SLOW);
    firstTurn.release();
    const transcript = page.locator("ol[aria-label='Transcript events']");
    await transcript.getByText("from-the-sandbox").first().waitFor(SLOW);
    await page.getByTestId("stream-state").getByText("Transcript complete").waitFor(SLOW);
    await expect.poll(() => page.getByTestId("run-status").textContent(), SLOW).toBe("Succeeded");
    await page.getByText(SUMMARY).first().waitFor();
    await expectAccessible("run");

    const run = await waitForFinishedRun(p, { id: ids.run }, 60_000);
    expect(run).toMatchObject({ jobId: ids.job, status: "SUCCEEDED", trigger: "MANUAL" });
    const events = await p.t.db.runEvent.findMany({ where: { runId: run.id } });
    expect(events.filter((e) => e.type === "tool_call")).toHaveLength(3);

    // The runs list shows it, by the same short id as the run page's title.
    await page.goto(`/w/${ids.workspace}/runs`);
    const runs = page.getByRole("table", { name: "Runs" });
    await runs.getByRole("link", { name: new RegExp(`^Run ${ids.run.slice(-8)}`) }).waitFor();
    await expectAccessible("runs");
  }, 300_000);

  it("the webhook delivery shows as delivered, and arrived once", async () => {
    const delivery = await waitFor(
      "the delivery recorded as delivered",
      () => p.t.db.webhookDelivery.findFirst({ where: { runId: ids.run, status: "DELIVERED" } }),
      120_000,
    );
    expect(delivery.attemptCount).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const body = JSON.parse(receiver.received[0]!.body) as {
      run: { id: string; status: string };
      link: string;
    };
    expect(body.run).toMatchObject({ id: ids.run, status: "succeeded" });

    // The report's link opens the run (its path on this web app: the platform's public URL is
    // another port here), and the workspace-less form of links sent earlier redirects to it.
    const runPage = `/w/${ids.workspace}/runs/${ids.run}`;
    for (const path of [new URL(body.link).pathname, `/runs/${ids.run}`]) {
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === runPage);
      await page.getByRole("heading", { level: 1, name: `Run ${ids.run.slice(-8)}` }).waitFor();
    }

    await page.goto(`/w/${ids.workspace}/webhooks`);
    const item = page.locator(`[data-delivery="${delivery.id}"]`);
    await item.getByText("Delivered", { exact: true }).waitFor();
    // The delivery names its run (by the last characters of its id) and links to it.
    await item.getByRole("link", { name: `run ${ids.run.slice(-8)}` }).waitFor();
    await expectAccessible("webhooks");
  }, 180_000);

  it("the audit log lists every step", async () => {
    // Every step, in the order the owner took it (setup records the workspace and the owner's
    // joining; sign-in is not an audit event: sessions are listed on the account page). The
    // page lists the newest first.
    const steps = [
      "workspace.created", // by setup
      "member.joined", // the owner, by setup
      "provider.created",
      "connection.created", // everything
      "connection.tools_discovered",
      "connection.tools_allowed",
      "connection.created", // git
      "repository.added",
      "job.created", // by the sync
      "job.approved",
      "webhook.created",
      "run.requested",
      "tool.call", // by the run: echo on "everything"
    ];
    const recorded = await p.t.db.auditEvent.findMany({
      where: { workspaceId: ids.workspace },
      orderBy: { createdAt: "asc" },
    });
    expect(recorded.map((e) => e.action)).toEqual(steps);
    expect(recorded.at(-1)).toMatchObject({
      actorType: "RUN",
      actorId: ids.run,
      toolName: "echo",
      connectionId: ids.mcpConnection,
    });

    await page.goto(`/w/${ids.workspace}/audit`);
    const table = page.getByRole("table", { name: "Audit log" });
    await table.getByText("tool.call").waitFor();
    const shown = await table.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(shown).toEqual([...steps].reverse());
    await expectAccessible("audit");
  }, 120_000);

  it("[P02][P04] no secret the owner typed reaches a page, a log, the transcript or the audit", async () => {
    const secrets = {
      providerKey,
      gitToken,
      webhookSecret,
      encryptionKey: p.encryptionKeyB64,
    };
    const places: Record<string, string> = {};
    const pages = ["providers", "connections", "repositories", `jobs/${ids.job}`, "webhooks"];
    for (const path of [...pages, `runs/${ids.run}`, "audit"]) {
      // The server-rendered page, then what the browser shows once its queries have answered.
      places[`html of ${path}`] = await (
        await context.request.get(`/w/${ids.workspace}/${path}`)
      ).text();
      await page.goto(`/w/${ids.workspace}/${path}`);
      await page.locator("main h1").waitFor();
      places[`page ${path}`] = await page.content();
    }
    const stored = await everywhere(p, ids.workspace, {
      webProcess: app.output(),
      webhookBody: receiver.received.map((r) => r.body).join("\n"),
    });
    expect(findLeaks({ ...places, ...stored }, secrets)).toEqual([]);
  }, 120_000);
});
