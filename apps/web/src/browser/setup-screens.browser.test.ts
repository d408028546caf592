// Connections, repositories, jobs and the access review in a real browser against the real web
// process and database: the owner's main actions, what an admin and a viewer can (not) do —
// in the page and at the API — and repository-supplied markup rendering inert.
import { createUser } from "@secondshift/accounts/testing";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import { seedConnection, testKeyring, tool } from "@secondshift/domain/testing";
import { seedTenant, type SeededTenant } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  mutateAs,
  screenshot,
  seriousA11yViolations,
  signInContext,
  startWebApp,
  type WebApp,
} from "../testing/index.ts";

const PASSWORD = "a long passphrase 42";
const XSS_NAME = `<img src=x onerror="window.__xss='name'">Nightly <script>window.__xss='script'</script>`;
const XSS_PROMPT = `Summarise <script>window.__xss='prompt'</script> and see [docs](javascript:window.__xss='link') javascript:alert(1)`;

let app: WebApp;
let browser: Browser;
let tenant: SeededTenant;
let ws: string;
const users = {} as Record<"owner" | "admin" | "viewer", { email: string; password: string }>;
const ids = {} as Record<"ghA" | "ghB" | "docs" | "waiting" | "second" | "xss", string>;

interface JobSpec {
  key: string;
  tools: unknown[];
  overrides?: Record<string, unknown>;
}

/** The repository's .secondshift.yaml as a sync stores it (jobs missing from it are removed). */
async function syncJobs(specs: JobSpec[]): Promise<Record<string, string>> {
  const result = await upsertJobsFromConfig(app.db, {
    workspaceId: ws,
    repositoryId: tenant.repositoryId,
    commit: "a".repeat(40),
    jobs: specs.map((spec) => ({
      key: spec.key,
      name: spec.key,
      description: null,
      prompt: "Look at new issues and label them.",
      schedule: "0 9 * * 1-5",
      timezone: "Europe/Paris",
      model: null,
      tokenBudget: 100_000,
      timeoutSeconds: 600,
      tools: spec.tools as never,
      ...spec.overrides,
    })),
  });
  return Object.fromEntries(result.jobs.map((j) => [j.key, j.jobId]));
}

dbTest.beforeAll(async ({ testDatabase }) => {
  // The names the owner types resolve (fake DNS; saved, never dialled: no worker runs here).
  const hosts = {
    "mcp.tickets.example": ["93.184.215.14"],
    "github.com": ["93.184.215.15"],
    "api.github.com": ["93.184.215.16"],
  };
  [app, browser] = await Promise.all([
    startWebApp({ database: testDatabase, hosts }),
    launchBrowser(),
  ]);
  tenant = await seedTenant(app.db, { name: "screens" });
  ws = tenant.workspaceId;
  for (const role of ["owner", "admin", "viewer"] as const) {
    const user = await createUser(app.db, PASSWORD, {
      workspaceId: ws,
      role: role.toUpperCase() as "OWNER" | "ADMIN" | "VIEWER",
    });
    users[role] = { email: user.email, password: PASSWORD };
  }
  const keyring = testKeyring();
  const gitHubTools = [tool("list_issues"), tool("create_issue", true)];
  ids.ghA = await seedConnection(app.db, keyring, tenant, {
    kind: "GITHUB",
    label: "GitHub org A",
    endpoint: "https://api.github.com",
    tools: gitHubTools,
    allowed: ["list_issues", "create_issue"],
  });
  ids.ghB = await seedConnection(app.db, keyring, tenant, {
    kind: "GITHUB",
    label: "GitHub org B",
    endpoint: "https://api.github.com",
    tools: gitHubTools,
    allowed: ["list_issues", "create_issue"],
  });
  ids.docs = await seedConnection(app.db, keyring, tenant, {
    kind: "MCP",
    label: "docs",
    tools: [tool("search_docs"), tool("delete_page", true)],
    allowed: ["search_docs", "delete_page"],
  });
  const request = [
    { kind: "GITHUB", label: null, required: true, tools: ["list_issues", "create_issue"] },
    { kind: "MCP", label: "docs", required: false, tools: ["search_docs"] },
  ];
  const jobs = await syncJobs([
    { key: "triage", tools: request, overrides: { name: "Issue triage" } },
    { key: "weekly", tools: request, overrides: { name: "Weekly report" } },
    {
      key: "xss",
      tools: [],
      overrides: { name: XSS_NAME, prompt: XSS_PROMPT, description: "javascript:window.__xss='d'" },
    },
  ]);
  ids.waiting = jobs.triage!;
  ids.second = jobs.weekly!;
  ids.xss = jobs.xss!;
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

// One signed-in context per role for the whole file: sign-ins are rate limited per client
// address (20 per 15 minutes, shared with every other test of the same Redis).
const contexts = new Map<keyof typeof users, BrowserContext>();

async function signedIn(
  role: keyof typeof users,
): Promise<{ context: BrowserContext; page: Page }> {
  let context = contexts.get(role);
  if (!context) {
    context = await browser.newContext({ baseURL: app.origin });
    await signInContext(context, app.origin, users[role]);
    contexts.set(role, context);
  }
  return { context, page: await context.newPage() };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "OK",
    (error: unknown) => /"code":"(\w+)"/.exec(String(error))?.[1] ?? String(error),
  );
}

async function expectAccessible(page: Page, name: string) {
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, name);
}

describe("jobs and the access review", () => {
  it("the owner approves a waiting job, choosing which of two GitHub connections it binds to", async () => {
    const { page } = await signedIn("owner");
    await page.goto(`/w/${ws}/jobs`);
    await page.getByRole("table", { name: "Jobs" }).waitFor();
    expect(await page.getByText("At 09:00, Monday through Friday (Europe/Paris)").count()).toBe(3);
    await expectAccessible(page, "jobs");

    await page.getByRole("link", { name: "Issue triage" }).click();
    await page.getByRole("heading", { name: "Access review" }).waitFor();
    const picker = page.getByLabel("Connection for GitHub");
    // Two GitHub connections fit: nothing is preselected and approving waits for a choice.
    expect(await picker.inputValue()).toBe("");
    expect(await page.getByRole("button", { name: "Approve" }).isDisabled()).toBe(true);
    // The only MCP connection labelled "docs" is proposed.
    expect(await page.getByLabel('Connection for MCP server "docs"').inputValue()).toBe(ids.docs);
    await expectAccessible(page, "job-review-waiting");

    await picker.selectOption({ label: "GitHub org B" });
    await page.getByText("This job may change data in GitHub: create issue.").waitFor();
    expect(await page.getByText("May change data").count()).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: 'Approve "Issue triage"?' });
    await dialog.waitFor();
    await screenshot(page, "job-review-confirm");
    await dialog.getByRole("button", { name: "Approve" }).click();
    await page.getByText("Approved. The job may now run with the access shown.").waitFor();

    const grant = await app.db.grant.findFirstOrThrow({
      where: { jobId: ids.waiting, revokedAt: null },
      include: { tools: true },
    });
    expect(grant.bindings).toContainEqual({ kind: "GITHUB", label: null, connectionId: ids.ghB });
    expect(grant.tools.map((t) => `${t.connectionId}:${t.toolName}`).sort()).toEqual(
      [`${ids.docs}:search_docs`, `${ids.ghB}:create_issue`, `${ids.ghB}:list_issues`].sort(),
    );
    await page.getByText("Approved", { exact: true }).first().waitFor();
    expect(await page.getByRole("button", { name: "Revoke approval" }).isVisible()).toBe(true);
    await expectAccessible(page, "job-review-approved");

    // Approved, it can run now: the run is queued and the page says so.
    await page.getByRole("button", { name: "Run now" }).click();
    const run = page.getByRole("dialog", { name: 'Run "Issue triage" now?' });
    await run.getByRole("button", { name: "Run now" }).click();
    // It opens the new run's page, titled with the run's short id (its last 8 characters).
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}$/);
    const runId = /\/runs\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
    await page.getByRole("heading", { level: 1, name: `Run ${runId.slice(-8)}` }).waitFor();
    const manual = await app.db.run.findMany({ where: { jobId: ids.waiting, trigger: "MANUAL" } });
    expect(manual.map((r) => r.id)).toEqual([runId]);
  }, 120_000);

  it("[C02] an admin sees no approve button, and the API refuses the approval anyway", async () => {
    const { context, page } = await signedIn("admin");
    await page.goto(`/w/${ws}/jobs/${ids.second}`);
    await page.getByRole("heading", { name: "Access review" }).waitFor();
    await page.getByText("Only a workspace owner can approve, reject or revoke").waitFor();
    for (const name of ["Approve", "Reject", "Revoke approval"]) {
      expect(await page.getByRole("button", { name }).count()).toBe(0);
    }
    expect(await page.getByLabel("Connection for GitHub").isDisabled()).toBe(true);
    await expectAccessible(page, "job-review-admin");

    const review = await app.db.job.findUniqueOrThrow({ where: { id: ids.second } });
    const attempt = mutateAs(context, app.origin, "jobs.approve", {
      workspaceId: ws,
      jobId: ids.second,
      requestHash: review.requestHash,
      bindings: { "GITHUB:": ids.ghA },
    });
    expect(await refusal(attempt)).toBe("FORBIDDEN");
    expect((await app.db.job.findUniqueOrThrow({ where: { id: ids.second } })).status).toBe(
      "NEEDS_APPROVAL",
    );
    expect(await app.db.grant.count({ where: { jobId: ids.second } })).toBe(0);

    // An admin operates: pausing the schedule says what changed.
    await page.getByRole("button", { name: "Pause schedule" }).click();
    await page.getByText("Schedule paused").waitFor();
    expect((await app.db.job.findUniqueOrThrow({ where: { id: ids.second } })).enabled).toBe(false);
    await page.getByRole("button", { name: "Resume schedule" }).waitFor();
  }, 120_000);

  it("a job name, prompt and description carrying markup and javascript: links render inert", async () => {
    const { page } = await signedIn("owner");
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    for (const path of [`/w/${ws}/jobs`, `/w/${ws}/jobs/${ids.xss}`]) {
      await page.goto(path);
      await page.getByText(XSS_NAME).first().waitFor();
      expect(await page.locator("main img, main script").count()).toBe(0);
      expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __xss?: string }).__xss ?? null)).toBe(null);
    }
    expect(await page.getByText(XSS_PROMPT).isVisible()).toBe(true);
    expect(await page.getByText("javascript:window.__xss='d'").isVisible()).toBe(true);
    expect(dialogs).toEqual([]);
    await expectAccessible(page, "job-xss-inert");
  }, 120_000);
});

describe("connections", () => {
  it("the owner adds an MCP connection; its token never comes back to the page", async () => {
    const { page } = await signedIn("owner");
    await page.goto(`/w/${ws}/connections`);
    await page.getByRole("table", { name: "Connections" }).waitFor();
    await expectAccessible(page, "connections");
    const token = "tok-9f2c41a0-never-shown";
    await page.getByLabel("Name", { exact: true }).fill("tickets");
    await page.getByLabel("Endpoint").fill("https://mcp.tickets.example/mcp");
    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Add connection" }).click();
    await page.getByText('Connection "tickets" added.').waitFor();
    await page.getByRole("link", { name: "tickets" }).waitFor();
    expect(await page.content()).not.toContain(token);
    await page.getByRole("link", { name: "tickets" }).click();
    await page.getByText("credential set (write-only, never shown)").waitFor();
    expect(await page.content()).not.toContain(token);
    await expectAccessible(page, "connection-new");
  }, 120_000);

  it("the owner adds a GitHub App connection; the private key is write-only", async () => {
    const { page } = await signedIn("owner");
    await page.goto(`/w/${ws}/connections`);
    await page.getByLabel("Kind").selectOption({ label: "GitHub" });
    await page.getByRole("radio", { name: "GitHub App" }).check();
    const key =
      "-----BEGIN PRIVATE KEY-----\nMIIEvQ-not-a-real-key-5e1c\n-----END PRIVATE KEY-----";
    await page.getByLabel("Name", { exact: true }).fill("GitHub App");
    await page.getByLabel("App ID").fill("123456");
    await page.getByLabel("Installation ID").fill("7890123");
    await page.getByLabel("Private key (PEM)").fill(key);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Add connection" }).click();
    await page.getByText('Connection "GitHub App" added.').waitFor();
    expect(await page.getByLabel("Private key (PEM)").inputValue()).toBe("");
    expect(await page.content()).not.toContain("not-a-real-key");
    const row = await app.db.connection.findFirstOrThrow({
      where: { workspaceId: ws, label: "GitHub App" },
    });
    expect(row.authType).toBe("GITHUB_APP");
    expect(row.settings).toEqual({ appId: "123456", installationId: "7890123" });
    expect(row.credentialCiphertext).not.toBeNull();
  }, 120_000);

  it("the owner narrows the allowed tools, then deletion warns with the jobs it affects", async () => {
    const { page } = await signedIn("owner");
    await page.goto(`/w/${ws}/connections/${ids.docs}`);
    await page.getByRole("group", { name: "Tools jobs may use" }).waitFor();
    await expectAccessible(page, "connection-detail");
    await page.getByRole("checkbox", { name: "delete_page" }).uncheck();
    await page.getByRole("button", { name: "Save allowed tools" }).click();
    await page.getByText("Saved: jobs may now use 1 tool on this connection.").waitFor();
    const docs = await app.db.connection.findUniqueOrThrow({ where: { id: ids.docs } });
    expect(docs.allowedTools).toEqual(["search_docs"]);

    await page.goto(`/w/${ws}/connections/${ids.ghB}`);
    await page.getByRole("heading", { name: "Jobs that use it" }).waitFor();
    await page.getByRole("link", { name: "Issue triage" }).waitFor();
    await page.getByRole("button", { name: "Delete connection" }).click();
    const dialog = page.getByRole("dialog", { name: 'Delete "GitHub org B"?' });
    await dialog.getByText("These jobs lose their approval").waitFor();
    await dialog.getByText("Issue triage").waitFor();
    await screenshot(page, "connection-delete-warning");
    await dialog.getByRole("button", { name: "Delete connection" }).click();
    await page.waitForURL(`**/w/${ws}/connections?deleted=*`);
    await page.getByText('Connection "GitHub org B" deleted.').waitFor();
    const deleted = await app.db.connection.findUniqueOrThrow({ where: { id: ids.ghB } });
    expect(deleted.deletedAt).not.toBeNull();
  }, 120_000);
});

describe("repositories", () => {
  it("shows config errors with file and line; the owner syncs now and adds one (push secret shown once)", async () => {
    await app.db.repository.update({
      where: { id: tenant.repositoryId },
      data: {
        lastSyncedAt: new Date(),
        lastSyncedCommit: "a".repeat(40),
        configErrors: [
          {
            file: ".secondshift.yaml",
            line: 12,
            column: 15,
            path: "jobs.x.schedule",
            message: "not a cron expression",
          },
        ],
      },
    });
    const { page } = await signedIn("owner");
    await page.goto(`/w/${ws}/repositories`);
    await page.getByText(".secondshift.yaml, line 12").waitFor();
    await page.getByText("not a cron expression").waitFor();
    await expectAccessible(page, "repositories");
    await page.getByRole("button", { name: "Sync now: screens/app" }).click();
    await page.getByText("Sync queued.").waitFor();

    await page.getByLabel("Clone URL").fill("https://github.com/screens/new-app.git");
    await page.getByRole("button", { name: "Add repository" }).click();
    await page.getByText("Repository screens/new-app added").waitFor();
    const secret = await page.getByLabel("Push webhook secret").inputValue();
    expect(secret.length).toBeGreaterThan(16);
    await page.getByRole("heading", { name: "screens/new-app" }).waitFor();
    await screenshot(page, "repository-added");
    // Shown once: after a reload the secret is gone from the page.
    await page.reload();
    await page.getByRole("heading", { name: "screens/new-app" }).waitFor();
    expect(await page.content()).not.toContain(secret);
  }, 120_000);
});

describe("a viewer", () => {
  it("reads every page but finds no enabled action, and the API refuses a change", async () => {
    const { context, page } = await signedIn("viewer");
    // Each page with what shows that its content (not only the shell) has rendered.
    const pages: Array<[string, string, () => ReturnType<Page["getByRole"]>]> = [
      [
        "connections",
        `/w/${ws}/connections`,
        () => page.getByRole("table", { name: "Connections" }),
      ],
      [
        "connection-detail",
        `/w/${ws}/connections/${ids.docs}`,
        () => page.getByRole("group", { name: "Tools jobs may use" }),
      ],
      [
        "repositories",
        `/w/${ws}/repositories`,
        () => page.getByRole("heading", { name: "screens/app" }),
      ],
      ["jobs", `/w/${ws}/jobs`, () => page.getByRole("table", { name: "Jobs" })],
      [
        "job",
        `/w/${ws}/jobs/${ids.second}`,
        () => page.getByRole("heading", { name: "Access review" }),
      ],
    ];
    for (const [name, path, content] of pages) {
      await page.goto(path);
      await content().waitFor();
      const enabled = page.locator(
        "main button:enabled, main input:enabled:not([type=hidden]), main select:enabled, main textarea:enabled",
      );
      expect(await enabled.count(), name).toBe(0);
      expect(await seriousA11yViolations(page), name).toEqual([]);
      await screenshot(page, `viewer-${name}`);
    }
    expect(
      await refusal(
        mutateAs(context, app.origin, "jobs.pause", { workspaceId: ws, jobId: ids.second }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      await refusal(
        mutateAs(context, app.origin, "connections.setAllowedTools", {
          workspaceId: ws,
          connectionId: ids.docs,
          tools: ["search_docs", "delete_page"],
        }),
      ),
    ).toBe("FORBIDDEN");
  }, 180_000);
});

describe("decisions", () => {
  it("the owner rejects a waiting job after confirming; the page says what changed", async () => {
    const { page } = await signedIn("owner");
    await page.goto(`/w/${ws}/jobs/${ids.second}`);
    await page.getByRole("heading", { name: "Access review" }).waitFor();
    await page.getByRole("button", { name: "Reject" }).click();
    const dialog = page.getByRole("dialog", { name: 'Reject "Weekly report"?' });
    await dialog.getByRole("button", { name: "Reject" }).click();
    await page.getByText("Rejected. The job will not run").waitFor();
    expect((await app.db.job.findUniqueOrThrow({ where: { id: ids.second } })).status).toBe(
      "REJECTED",
    );
    await page.getByText("Rejected", { exact: true }).waitFor();
  }, 120_000);

  it("the owner revokes an approval after confirming", async () => {
    const { context, page } = await signedIn("owner");
    const job = await app.db.job.findUniqueOrThrow({ where: { id: ids.xss } });
    const { grantId } = (await mutateAs(context, app.origin, "jobs.approve", {
      workspaceId: ws,
      jobId: ids.xss,
      requestHash: job.requestHash,
    })) as { grantId: string };
    await page.goto(`/w/${ws}/jobs/${ids.xss}`);
    await page.getByText("This job asks for no tools").waitFor();
    await page.getByRole("button", { name: "Revoke approval" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke this job's approval?" });
    await dialog.getByRole("button", { name: "Revoke approval" }).click();
    await page.getByText("Approval revoked.").waitFor();
    const grant = await app.db.grant.findUniqueOrThrow({ where: { id: grantId } });
    expect(grant.revokedAt).not.toBeNull();
  }, 120_000);
});
