// The overview, members and invitations, sessions and model providers screens in a real
// browser: what each role sees, what each action says it changed, secrets shown once or never,
// and repository- or run-supplied strings rendered inert.
import { randomUUID } from "node:crypto";
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Browser, Page } from "playwright-core";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import {
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signInContext,
  startWebApp,
  watchCspViolations,
  type WebApp,
} from "../testing/index.ts";

const PASSWORD = "screens passphrase 42";
const MARKUP = `<img src=x onerror="window.__xss=1">`;
let app: WebApp;
let browser: Browser;
let seed: SeededWorkspace;
const people = { owner: "", viewer: "" };
/** Every CSP violation any page of this file reported (checked at the end). */
const cspViolations: string[][] = [];

async function seedAttention(db: WebApp["db"], ws: SeededWorkspace) {
  await db.job.create({
    data: {
      workspaceId: ws.workspaceId,
      repositoryId: ws.repositoryId,
      key: "nightly",
      name: `Nightly ${MARKUP}`,
      prompt: "p",
      tokenBudget: 1000,
      timeoutSeconds: 60,
      requestedTools: [],
      requestHash: "h2",
      status: "NEEDS_APPROVAL",
      configCommit: "1".repeat(40),
    },
  });
  const run = await seedRun(db, ws, { status: "RUNNING" });
  const webhook = await db.webhook.create({
    data: {
      workspaceId: ws.workspaceId,
      name: "ops",
      urlCiphertext: Buffer.from("sealed"),
      secretCiphertext: Buffer.from("sealed"),
    },
  });
  await db.webhookDelivery.create({
    data: {
      workspaceId: ws.workspaceId,
      webhookId: webhook.id,
      runId: run.id,
      status: "FAILED",
      attemptCount: 5,
    },
  });
  await db.repository.update({
    where: { id: ws.repositoryId },
    data: {
      configErrors: [
        { file: ".secondshift.yaml", line: 7, column: 3, path: "jobs", message: `bad ${MARKUP}` },
      ],
    },
  });
}

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser] = await Promise.all([
    // The provider form's default base URL is resolved at save (the fake DNS knows only these).
    startWebApp({ database: testDatabase, hosts: { "api.anthropic.com": ["160.79.104.10"] } }),
    launchBrowser(),
  ]);
  seed = await seedWorkspace(app.db, { name: "screens" });
  // Getting started: the seed has a repository and an approved job, seedAttention a webhook;
  // with a connection (and, in the overview's test, a provider) the overview shows its panels.
  await app.db.connection.create({
    data: {
      workspaceId: seed.workspaceId,
      kind: "GITHUB",
      label: "gh",
      endpoint: "https://api.github.com",
    },
  });
  for (const role of ["OWNER", "VIEWER"] as const) {
    const user = await createUser(app.db, PASSWORD, { workspaceId: seed.workspaceId, role });
    people[role === "OWNER" ? "owner" : "viewer"] = user.email;
  }
  await seedAttention(app.db, seed);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  // The screens' own markup (styles, scripts) never tripped the policy.
  expect(cspViolations.flat()).toEqual([]);
});

async function pageAs(who: keyof typeof people, path: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.origin });
  await signInContext(context, app.origin, { email: people[who], password: PASSWORD });
  const page = await context.newPage();
  cspViolations.push(watchCspViolations(page));
  await page.goto(`/w/${seed.workspaceId}${path}`);
  return page;
}

describe("workspace screens", () => {
  it("the overview lists approvals, active runs, failed deliveries and config errors, inertly", async () => {
    // The last getting-started step, for this test only (the providers test starts from none).
    const provider = await app.db.modelProvider.create({
      data: {
        workspaceId: seed.workspaceId,
        name: "overview",
        kind: "ANTHROPIC",
        baseUrl: "https://api.anthropic.com",
        apiKeyCiphertext: Buffer.from("sealed"),
      },
    });
    onTestFinished(() =>
      app.db.modelProvider.delete({ where: { id: provider.id } }).then(() => {}),
    );
    const page = await pageAs("owner", "");
    const approvals = page.getByRole("region", { name: /Jobs waiting for approval/ });
    await approvals.getByText(`Nightly ${MARKUP}`).waitFor();
    expect(await page.getByRole("region", { name: /Active runs/ }).textContent()).toMatch(
      /Running/,
    );
    expect(
      await page.getByRole("region", { name: /Failed webhook deliveries/ }).textContent(),
    ).toMatch(/5 attempts/);
    const problems = page.getByRole("region", { name: /Sync and config errors/ });
    expect(await problems.textContent()).toContain(`.secondshift.yaml:7 bad ${MARKUP}`);
    // The markup stayed text: no element was made from it, no handler ran.
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss ?? null)).toBeNull();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "overview");
  }, 60_000);

  it("an owner invites: the link is shown once; the invitation can be withdrawn", async () => {
    const page = await pageAs("owner", "/members");
    await page.getByRole("table", { name: "Members" }).waitFor();
    const email = `invitee-${randomUUID().slice(0, 8)}@example.test`;
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Role", { exact: true }).selectOption("ADMIN");
    await page.getByRole("button", { name: "Create invitation link" }).click();
    const linkBox = page.getByLabel("Invitation link");
    await linkBox.waitFor();
    const link = await linkBox.inputValue();
    expect(link).toMatch(new RegExp(`^${app.origin}/invite#token=`));
    expect(await page.getByRole("status").first().textContent()).toContain(email);
    await page.getByRole("table", { name: "Open invitations" }).getByText(email).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "members-invitation-link");

    // Shown once: after a reload the link is nowhere on the page.
    await page.reload();
    await page.getByRole("table", { name: "Open invitations" }).getByText(email).waitFor();
    expect(await page.content()).not.toContain(new URL(link).hash.slice(1));

    await page.getByRole("button", { name: `Withdraw the invitation for ${email}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Withdraw" }).click();
    await page.getByText(`The invitation for ${email} was withdrawn.`).waitFor();
    await expect.poll(() => page.getByRole("table", { name: "Open invitations" }).count()).toBe(0);
    await page.getByText("No open invitations").waitFor();
    await screenshot(page, "members");
  }, 60_000);

  it("an owner changes a role and removes a member, each confirmed; the API's refusal is shown", async () => {
    const page = await pageAs("owner", "/members");
    const table = page.getByRole("table", { name: "Members" });
    await table.waitFor();
    // The seeded admin becomes a viewer.
    const admin = table.getByRole("row").filter({ hasText: "admin-" });
    await admin.getByRole("combobox").selectOption("VIEWER");
    const dialog = page.getByRole("dialog");
    expect(await dialog.textContent()).toMatch(/becomes Viewer/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Change role" }).click();
    await page.getByText("ADMIN is now Viewer.").waitFor();
    // Removing the seeded owner works (another owner remains); it leaves the table.
    const seededOwner = table.getByRole("row").filter({ hasText: "owner-" });
    await seededOwner.getByRole("button", { name: /^Remove/ }).click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await page.getByText("OWNER was removed from the workspace.").waitFor();
    await expect.poll(() => table.getByRole("row").filter({ hasText: "owner-" }).count()).toBe(0);
    // The last owner cannot demote themselves: the dialog shows the API's message.
    const me = table.getByRole("row").filter({ hasText: "You" });
    await me.getByRole("combobox").selectOption("ADMIN");
    await dialog.getByRole("button", { name: "Change role" }).click();
    await dialog.getByRole("alert").waitFor();
    expect(await dialog.getByRole("alert").textContent()).toMatch(/owner/i);
    await screenshot(page, "members-last-owner-refused");
  }, 60_000);

  it("[P05] a viewer sees the members but no way to change them, and no other workspace", async () => {
    const page = await pageAs("viewer", "/members");
    await page.getByRole("table", { name: "Members" }).getByText(people.owner).waitFor();
    expect(await page.getByRole("button", { name: /Remove|Create invitation/ }).count()).toBe(0);
    // No role pickers (and no switcher: the viewer has one workspace).
    expect(await page.getByRole("combobox").count()).toBe(0);
    await screenshot(page, "members-viewer");
    // [P05] A workspace the viewer is not a member of is not found, like one that does not exist.
    const other = await seedWorkspace(app.db, { name: "elsewhere" });
    await page.goto(`/w/${other.workspaceId}/members`);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    expect(await page.content()).not.toContain("elsewhere");
  }, 60_000);

  it("[P04] a provider key is written once and never shown; replacing it says so", async () => {
    const key = `sk-planted-${randomUUID()}`;
    const page = await pageAs("owner", "/providers");
    await page.getByText("No model provider yet").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("Anthropic main");
    await page.getByLabel("API key").fill(key);
    await page.getByRole("button", { name: "Add provider" }).click();
    const table = page.getByRole("table", { name: "Model providers" });
    await table.getByText("Anthropic main").waitFor();
    expect(await table.textContent()).toMatch(/Set\s*updated/);
    await page.reload();
    await table.getByText("Anthropic main").waitFor();
    expect(await page.content()).not.toContain(key);

    await page.getByRole("button", { name: "Replace key of Anthropic main" }).click();
    await page.getByLabel("New API key").fill(`${key}-2`);
    await page.getByRole("dialog").getByRole("button", { name: "Replace key" }).click();
    await page.getByText("The key of Anthropic main was replaced.").waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "providers");

    const viewer = await pageAs("viewer", "/providers");
    await viewer
      .getByRole("table", { name: "Model providers" })
      .getByText("Anthropic main")
      .waitFor();
    expect(
      await viewer
        .getByRole("button", { name: /Replace|Delete|Add provider|Verify|Edit models/ })
        .count(),
    ).toBe(0);
  }, 60_000);

  it("the workspace switcher opens another workspace of the user", async () => {
    const second = await seedWorkspace(app.db, { name: "second-team" });
    const owner = await app.db.user.findUniqueOrThrow({ where: { email: people.owner } });
    await app.db.membership.create({
      data: { workspaceId: second.workspaceId, userId: owner.id, role: "ADMIN" },
    });
    const page = await pageAs("owner", "");
    await page.getByRole("combobox", { name: "Workspace" }).selectOption({ label: "second-team" });
    expect(page.url()).toMatch(new RegExp(`/w/${seed.workspaceId}$`));
    await page.getByRole("button", { name: "Open" }).click();
    await page.waitForURL(`**/w/${second.workspaceId}`);
    await page.getByRole("heading", { name: "Overview" }).waitFor();
  }, 60_000);

  it("the account's sessions list this browser; ending it signs out", async () => {
    const context = await browser.newContext({ baseURL: app.origin });
    await signInContext(context, app.origin, { email: people.owner, password: PASSWORD });
    const page = await context.newPage();
    await page.goto("/account/sessions");
    await page.getByRole("table", { name: "Your sessions" }).getByText("This browser").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "account-sessions");
    const row = page.getByRole("row").filter({ hasText: "This browser" });
    await row.getByRole("button", { name: /End the session/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "End session" }).click();
    await page.waitForURL("**/sign-in");
  }, 60_000);
});
