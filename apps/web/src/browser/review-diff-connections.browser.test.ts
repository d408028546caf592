// The access review's diff against the last approval, and the connection page's actions that
// reach the service: discover tools (server-everything on loopback, and a netguard refusal) and
// connect with OAuth (a loopback OAuth 2.1 authorization server) — in a real browser against the
// real web process, whose netguard allows loopback as an operator would allow an internal host.
import { createUser } from "@secondshift/accounts/testing";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import { seedConnection, testKeyring, tool } from "@secondshift/domain/testing";
import { startFakeOAuthMcp, type FakeOAuthMcp } from "@secondshift/api/testing";
import { startEverything, type RunningServer } from "@secondshift/connectors/testing";
import { seedTenant, type SeededTenant } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  LOOPBACK_ALLOWED,
  mutateAs,
  screenshot,
  seriousA11yViolations,
  signInContext,
  startWebApp,
  type WebApp,
} from "../testing/index.ts";

const PASSWORD = "a long passphrase 42";

let app: WebApp;
let browser: Browser;
let everything: RunningServer;
let oauthServer: FakeOAuthMcp;
let tenant: SeededTenant;
let ws: string;
let context: BrowserContext;

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser, everything, oauthServer] = await Promise.all([
    startWebApp({ database: testDatabase, env: LOOPBACK_ALLOWED }),
    launchBrowser(),
    startEverything("streamableHttp"),
    startFakeOAuthMcp(),
  ]);
  tenant = await seedTenant(app.db, { name: "diff" });
  ws = tenant.workspaceId;
  const owner = await createUser(app.db, PASSWORD, { workspaceId: ws, role: "OWNER" });
  context = await browser.newContext({ baseURL: app.origin });
  await signInContext(context, app.origin, { email: owner.email, password: PASSWORD });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await everything?.stop();
  await oauthServer?.close();
  await app?.close();
});

async function syncTriage(tools: string[]): Promise<string> {
  const result = await upsertJobsFromConfig(app.db, {
    workspaceId: ws,
    repositoryId: tenant.repositoryId,
    commit: "b".repeat(40),
    jobs: [
      {
        key: "triage",
        name: "Issue triage",
        description: null,
        prompt: "Label new issues.",
        schedule: null,
        timezone: "UTC",
        model: null,
        tokenBudget: 100_000,
        timeoutSeconds: 600,
        tools: [{ kind: "MCP", label: "docs", required: true, tools }],
      },
    ],
  });
  return result.jobs[0]!.jobId;
}

async function expectAccessible(page: Page, name: string) {
  expect(await seriousA11yViolations(page)).toEqual([]);
  await screenshot(page, name);
}

describe("the access review's diff against the last approval", () => {
  it("[C04] after a sync widens the approved request, the review names exactly what changed", async () => {
    await seedConnection(app.db, testKeyring(), tenant, {
      kind: "MCP",
      label: "docs",
      tools: [tool("search_docs"), tool("delete_page", true), tool("create_issue", true)],
      allowed: ["search_docs", "delete_page", "create_issue"],
    });
    const jobId = await syncTriage(["search_docs", "delete_page"]);
    const { requestHash } = await app.db.job.findUniqueOrThrow({ where: { id: jobId } });
    await mutateAs(context, app.origin, "jobs.approve", { workspaceId: ws, jobId, requestHash });

    const page = await context.newPage();
    await page.goto(`/w/${ws}/jobs/${jobId}`);
    await page.getByText("This exact request was approved on").waitFor();
    await page.getByText('Unchanged: MCP server "docs" — delete page and search docs.').waitFor();

    // The repository now asks for create_issue instead of delete_page.
    await syncTriage(["search_docs", "create_issue"]);
    await page.reload();
    await page
      .getByText("The repository changed this job's request since the last approval")
      .waitFor();
    const changes = page.getByTestId("review-changes").getByRole("listitem");
    expect(await changes.allInnerTexts()).toEqual([
      'New since the last approval: MCP server "docs" — create issue (may change data).',
      'No longer requested: MCP server "docs" — delete page (may change data).',
      'Unchanged: MCP server "docs" — search docs.',
    ]);
    // Per tool, the same: the new one is marked, the kept one says it was approved before.
    await page.getByText("New since last approval", { exact: true }).waitFor();
    expect(await page.getByText("Approved before", { exact: true }).count()).toBe(1);
    await expectAccessible(page, "job-review-diff");
    await page.close();
  }, 120_000);
});

describe("the connection page reaches the service", () => {
  async function create(label: string, endpoint: string, authType: "NONE" | "OAUTH") {
    const created = (await mutateAs(context, app.origin, "connections.create", {
      workspaceId: ws,
      kind: "MCP",
      label,
      endpoint,
      authType,
    })) as { id: string };
    return created.id;
  }

  it("[C25] Discover tools lists the server's tools with their data-changing marks", async () => {
    const id = await create("everything", everything.url, "NONE");
    const page = await context.newPage();
    await page.goto(`/w/${ws}/connections/${id}`);
    // Created: its tools were listed at once; the owner can ask the service again.
    await page.getByRole("checkbox", { name: "echo" }).waitFor();
    await page.getByRole("button", { name: "Discover tools again" }).click();
    const status = page.getByRole("status").filter({ hasText: "Found" });
    await status.waitFor();
    expect(await status.innerText()).toMatch(/^Found \d+ tools: .*echo.*\(may change data\)/);
    await page.getByRole("checkbox", { name: "echo" }).waitFor();
    expect(await page.getByText("Read-only").count()).toBeGreaterThan(0);
    expect(await page.getByText("May change data").count()).toBeGreaterThan(0);
    await expectAccessible(page, "connection-discovered");
    await page.close();
  }, 120_000);

  it("[C21] a discovery netguard refuses shows the API's message", async () => {
    const id = await seedConnection(app.db, testKeyring(), tenant, {
      kind: "MCP",
      label: "internal",
      endpoint: "http://10.255.255.1/mcp",
      tools: [],
      allowed: [],
    });
    const page = await context.newPage();
    await page.goto(`/w/${ws}/connections/${id}`);
    await page.getByRole("button", { name: "Discover tools" }).click();
    const alert = page.getByRole("alert").filter({ hasText: /refused/i });
    await alert.waitFor();
    await page.close();
  }, 60_000);

  it("[C23] Connect with OAuth goes to the authorization server and lands back on the page, connected", async () => {
    const id = await create("oauth-docs", oauthServer.url, "OAUTH");
    const page = await context.newPage();
    await page.goto(`/w/${ws}/connections/${id}`);
    await page.getByRole("button", { name: "Connect with OAuth" }).click();
    await page.waitForURL(`${app.origin}/w/${ws}/connections/${id}?oauth=connected`);
    await page.getByText("Connected with OAuth: the service authorized this connection.").waitFor();
    expect(oauthServer.authorizeRequests.length).toBe(1);
    // The stored token works: discovery through it lists the protected server's tool.
    await page.getByRole("button", { name: "Discover tools" }).click();
    await page.getByText("Found 1 tool: whoami.").waitFor();
    await expectAccessible(page, "connection-oauth-connected");

    // Later the service refuses a refresh: the page says so, and Reconnect runs the flow again.
    await app.db.connection.update({
      where: { id },
      data: { reconnectRequiredAt: new Date(), authError: "The service refused to renew it." },
    });
    await page.goto(`/w/${ws}/connections/${id}`);
    await page.getByText("Reconnect needed").waitFor();
    await page.getByText("The service refused to renew it.", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Reconnect" }).click();
    await page.waitForURL(`${app.origin}/w/${ws}/connections/${id}?oauth=connected`);
    await page.getByText("Connected with OAuth: the service authorized this connection.").waitFor();
    expect(oauthServer.authorizeRequests.length).toBe(2);
    expect(await page.getByText("Reconnect needed").count()).toBe(0);
    await page.close();
  }, 120_000);

  it("a declined authorization lands on the connections page with the reason in words", async () => {
    const page = await context.newPage();
    await page.goto(`/api/oauth/callback?error=access_denied`);
    await page.waitForURL(
      `${app.origin}/w/${ws}/connections?oauth=failed&reason=OAUTH_NOT_AUTHORIZED`,
    );
    await page
      .getByRole("alert")
      .filter({ hasText: "Connecting with OAuth failed: the authorization was declined" })
      .waitFor();
    await page.close();
  }, 60_000);
});
