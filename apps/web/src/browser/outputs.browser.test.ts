// A run's results in a real browser against the real web process and database: each proposal
// with its state, its text (rendered as text), why it is held or refused, the link once
// applied; an owner approves a held one (asked first) and it is recorded once and queued for a
// worker; an admin sees no decision controls; the overview lists what waits. A proposed pull
// request shows its branches, size and each file's diff, a long patch collapsed; the access
// review grants a requested pull request within its limits.
import { createUser } from "@secondshift/accounts/testing";
import type { Db } from "@secondshift/db";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { OutputState } from "@secondshift/vocabulary";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import {
  launchBrowser,
  screenshot,
  seriousA11yViolations,
  signInContext,
  startWebApp,
  type WebApp,
} from "../testing/index.ts";

let app: WebApp;
let browser: Browser;
let seed: SeededWorkspace;
let owner: BrowserContext;
let admin: BrowserContext;
const password = "outputs screens passphrase 42";

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser] = await Promise.all([startWebApp({ database: testDatabase }), launchBrowser()]);
  seed = await seedWorkspace(app.db, { name: "outputs-team", withProvider: true });
  // Getting started done (provider, repository, approved job, a connection, a webhook): the
  // overview shows its panels.
  await app.db.connection.create({
    data: {
      workspaceId: seed.workspaceId,
      kind: "GITHUB",
      label: "gh",
      endpoint: "https://api.github.com",
    },
  });
  await app.db.webhook.create({
    data: {
      workspaceId: seed.workspaceId,
      name: "ops",
      urlCiphertext: Buffer.from("sealed"),
      secretCiphertext: Buffer.from("sealed"),
    },
  });
  const signedIn = async (role: "OWNER" | "ADMIN") => {
    const user = await createUser(app.db, password, { workspaceId: seed.workspaceId, role });
    const context = await browser.newContext({ baseURL: app.origin });
    await signInContext(context, app.origin, { email: user.email, password });
    return context;
  };
  owner = await signedIn("OWNER");
  admin = await signedIn("ADMIN");
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function output(
  db: Db,
  runId: string,
  seq: number,
  fields: {
    kind: string;
    state: OutputState;
    payload: object;
    reason?: string;
    resultUrl?: string;
  },
) {
  return db.runOutput.create({
    data: { workspaceId: seed.workspaceId, runId, jobId: seed.jobId, seq, ...fields },
  });
}

describe("a run's results", () => {
  it("shows each proposal's state and reason, and an owner approves a held one once", async () => {
    const run = await seedRun(app.db, seed, { status: "SUCCEEDED" });
    const held = await output(app.db, run.id, 0, {
      kind: "comment",
      state: "HELD",
      payload: { number: 12, body: "<img src=x onerror=alert(1)> Summary: 3 updates." },
      reason: "Held for an owner's approval (the grant's mode).",
    });
    await output(app.db, run.id, 1, {
      kind: "issue",
      state: "REFUSED",
      payload: { title: "[deps] Update x", body: "token here", labels: ["dependencies"] },
      reason: "Refused: the body contains a credential (rule github-token); nothing was written.",
    });
    await output(app.db, run.id, 2, {
      kind: "issue",
      state: "APPLIED",
      payload: { title: "[deps] Done", body: "Applied one.", labels: [] },
      resultUrl: "https://github.example.test/acme/widgets/issues/40",
    });
    const page = await owner.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    const cards = page.getByTestId("output");
    await expect.poll(() => cards.count()).toBe(3);
    expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-state")))).toEqual([
      "HELD",
      "REFUSED",
      "APPLIED",
    ]);
    // The body is text: the planted markup is shown, not run.
    await page.getByText("<img src=x onerror=alert(1)> Summary: 3 updates.").waitFor();
    await page.getByText(/rule github-token/).waitFor();
    const link = page.getByRole("link", { name: /issues\/40/ });
    expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "run-results");

    // Only the held one offers a decision; approving asks first.
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(1);
    await page.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: /Apply this output/ });
    await dialog.getByText(/Comment on #12/).waitFor();
    await dialog.getByRole("button", { name: "Approve and apply" }).click();
    await expect
      .poll(
        async () => (await app.db.runOutput.findUniqueOrThrow({ where: { id: held.id } })).state,
      )
      .toBe("APPROVED");
    await expect.poll(() => cards.first().getAttribute("data-state")).not.toBe("HELD");
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    const audit = await app.db.auditEvent.findMany({ where: { targetId: held.id } });
    expect(audit.map((a) => a.action)).toEqual(["output.approved"]);
    await page.close();
  }, 60_000);

  it("offers an admin no decision, and the overview lists what waits", async () => {
    const run = await seedRun(app.db, seed, { status: "SUCCEEDED" });
    await output(app.db, run.id, 0, {
      kind: "issue",
      state: "HELD",
      payload: { title: "[deps] Waiting one", body: "Please look.", labels: [] },
      reason: "Held for an owner's approval (the grant's mode).",
    });
    const page = await admin.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    await page.getByText("Please look.").waitFor();
    expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0);
    const overview = await owner.newPage();
    await overview.goto(`/w/${seed.workspaceId}`);
    const waiting = overview.getByRole("region", { name: /Results waiting for approval/ });
    await waiting.getByRole("link", { name: "New issue: [deps] Waiting one" }).click();
    await overview.waitForURL(`**/w/${seed.workspaceId}/runs/${run.id}`);
    await overview.getByText("Please look.").waitFor();
  }, 60_000);

  it("shows a proposed pull request file by file, a long patch collapsed", async () => {
    const run = await seedRun(app.db, seed, { status: "SUCCEEDED" });
    const long = Array.from({ length: 250 }, (_, i) => `+line ${i + 1}`);
    const pr = await output(app.db, run.id, 0, {
      kind: "pull_request",
      state: "HELD",
      reason: "Held for an owner's approval (the grant's mode).",
      payload: {
        title: "Bump lodash to 4.17.21",
        body: "Fixes the advisory.",
        draft: true,
        labels: ["dependencies"],
        baseSha: "0123456789abcdef0123456789abcdef01234567",
        baseBranch: "main",
        headBranch: "secondshift/deps-run1",
        files: [
          {
            path: "package.json",
            status: "modified",
            mode: "100644",
            content: "FULL CONTENT NOT SENT",
            additions: 1,
            deletions: 1,
            patch:
              '===================================================================\n--- a/package.json\n+++ b/package.json\n@@ -1,3 +1,3 @@\n {\n-  "lodash": "4.17.20"\n+  "lodash": "4.17.21"\n }\n',
          },
          {
            path: "scripts/check.sh",
            status: "added",
            mode: "100755",
            content: "#!/bin/sh\n",
            additions: 250,
            deletions: 0,
            patch: `--- /dev/null\n+++ b/scripts/check.sh\n@@ -0,0 +1,250 @@\n${long.join("\n")}\n`,
          },
          {
            path: "old.txt",
            status: "deleted",
            mode: null,
            content: null,
            additions: 0,
            deletions: 2,
            patch: "--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-gone one\n-gone two\n",
          },
        ],
      },
    });
    const page = await owner.newPage();
    await page.goto(`/w/${seed.workspaceId}/runs/${run.id}`);
    const card = page.getByTestId("output");
    await card.getByText('Pull request "Bump lodash to 4.17.21"').waitFor();
    await card.getByText("secondshift/deps-run1 → main").waitFor();
    await card.getByText("Draft", { exact: true }).waitFor();
    await card.getByText("3 files changed, +251 −3").waitFor();
    const files = page.getByTestId("pr-file");
    expect(await files.count()).toBe(3);
    const headings = await files.evaluateAll((els) =>
      els.map((e) => e.querySelector("h3")?.textContent ?? ""),
    );
    expect(headings[0]).toContain("package.json");
    expect(headings[0]).toContain("modified");
    expect(headings[1]).toMatch(/scripts\/check\.sh.*added.*executable/);
    expect(headings[2]).toMatch(/old\.txt.*deleted/);
    await page.getByRole("heading", { name: /old\.txt/ }).waitFor();

    const pkg = files.nth(0);
    const added = pkg.locator('[data-line="add"]');
    expect(await added.allTextContents()).toEqual(['+  "lodash": "4.17.21"']);
    expect(await pkg.locator('[data-line="del"]').allTextContents()).toEqual([
      '-  "lodash": "4.17.20"',
    ]);
    expect(await pkg.locator('[data-line="hunk"]').allTextContents()).toEqual(["@@ -1,3 +1,3 @@"]);
    // The +/− colours differ (the sign stays too).
    const [addBg, delBg] = await Promise.all([
      added.first().evaluate((e) => getComputedStyle(e).backgroundColor),
      pkg
        .locator('[data-line="del"]')
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor),
    ]);
    expect(addBg).not.toBe(delBg);
    expect(await files.nth(2).locator('[data-line="del"]').allTextContents()).toEqual([
      "-gone one",
      "-gone two",
    ]);
    // The patch headers repeat the path: not shown as removed or added lines.
    expect(await page.getByText("+++ b/package.json").count()).toBe(0);

    const script = files.nth(1);
    expect(await script.locator('[data-line="add"]').count()).toBe(199); // 200 lines, one hunk header
    await script.getByRole("button", { name: "Show all 251 lines" }).click();
    await expect.poll(() => script.locator('[data-line="add"]').count()).toBe(250);
    await script.getByText("+line 250", { exact: true }).waitFor();
    expect(await page.content()).not.toContain("FULL CONTENT NOT SENT");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "run-pull-request");

    await page.getByRole("button", { name: "Approve" }).click();
    const dialog = page.getByRole("dialog", { name: /Apply this output/ });
    await dialog.getByText(/new branch secondshift\/deps-run1/).waitFor();
    await dialog.getByRole("button", { name: "Approve and apply" }).click();
    await expect
      .poll(async () => (await app.db.runOutput.findUniqueOrThrow({ where: { id: pr.id } })).state)
      .toBe("APPROVED");
    await page.close();
  }, 60_000);

  it("lets an owner grant a requested pull request within the request in the access review", async () => {
    const app_ = await app.db.connection.create({
      data: {
        workspaceId: seed.workspaceId,
        kind: "GITHUB",
        label: "app",
        endpoint: "https://api.github.com",
        authType: "GITHUB_APP",
      },
    });
    await app.db.repository.update({
      where: { id: seed.repositoryId },
      data: { connectionId: app_.id },
    });
    const job = await app.db.job.create({
      data: {
        workspaceId: seed.workspaceId,
        repositoryId: seed.repositoryId,
        key: "deps",
        name: "Deps",
        prompt: "Bump what is outdated.",
        tokenBudget: 10_000,
        timeoutSeconds: 60,
        requestedTools: [],
        requestedOutputs: {
          comment: { max: 2, target: "triggering" },
          pull_request: {
            draft: true,
            labels: ["dependencies"],
            maxFiles: 5,
            maxChangedLines: 200,
          },
        },
        requestHash: "h-deps",
        status: "NEEDS_APPROVAL",
        configCommit: "0".repeat(40),
      },
    });
    const page = await owner.newPage();
    await page.goto(`/w/${seed.workspaceId}/jobs/${job.id}`);
    const outputs = page.getByRole("region", { name: "Outputs" });
    const pr = outputs.getByRole("checkbox", {
      name: /Pull requests \(requested: one per run, at most 5 files and 200 changed lines\)/,
    });
    await pr.waitFor();
    await outputs.getByText(/Opened as a draft .*labels: dependencies/).waitFor();
    await outputs
      .getByText("The GitHub App needs Contents: write, Pull requests: write.")
      .waitFor();
    // The comment row reads as before.
    await outputs
      .getByRole("checkbox", {
        name: "Comments on an issue or pull request (requested: at most 2 per run)",
      })
      .waitFor();
    await pr.check();
    const files = outputs.getByLabel("Max files");
    const lines = outputs.getByLabel("Max changed lines");
    expect(await files.inputValue()).toBe("5");
    expect(await files.getAttribute("max")).toBe("5");
    expect(await lines.getAttribute("max")).toBe("200");
    await files.fill("2");
    await lines.fill("999"); // above the request: kept at the request's limit
    expect(await lines.inputValue()).toBe("200");
    await outputs.getByLabel("Pull requests: mode").selectOption("auto");
    // [O04] paths the owner wants to approve by hand, one per line.
    await outputs
      .getByLabel(/Paths that always wait for my approval/)
      .fill("migrations/\ndb/schema.sql\n");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await page
      .getByRole("dialog", { name: /Approve "Deps"/ })
      .getByRole("button", { name: "Approve" })
      .click();
    await expect
      .poll(async () => (await app.db.grant.findFirst({ where: { jobId: job.id } }))?.outputs)
      .toEqual({
        pull_request: {
          draft: true,
          labels: ["dependencies"],
          maxFiles: 2,
          maxChangedLines: 200,
          mode: "auto",
          protectedPaths: ["migrations/", "db/schema.sql"],
        },
      });
    await outputs
      .getByText(
        'Granted now: at most 2 files and 200 changed lines, applied automatically; changes to "migrations/" and "db/schema.sql" wait for approval.',
      )
      .waitFor();
    await page.close();
  }, 60_000);
});
