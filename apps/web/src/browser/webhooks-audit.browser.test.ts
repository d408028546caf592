// Webhooks and the audit log in a real browser against the real web process and database:
// adding a webhook shows its signing secret once (never again, never in a page), deliveries
// show every attempt and a failed one can be sent again; the audit log lists those changes,
// filters them, and links its exports.
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
let context: BrowserContext;
const password = "webhook screens passphrase 42";

beforeAll(async () => {
  [app, browser] = await Promise.all([startWebApp(), launchBrowser()]);
  seed = await seedWorkspace(app.db, { name: "hooks-team" });
  const owner = await createUser(app.db, password, {
    workspaceId: seed.workspaceId,
    role: "OWNER",
  });
  context = await browser.newContext({ baseURL: app.origin });
  await signInContext(context, app.origin, { email: owner.email, password });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("webhooks", () => {
  it("adding a webhook shows its signing secret once; a failed delivery shows its attempts and is sent again", async () => {
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/webhooks`);
    await page.getByText("No webhooks yet").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-empty");

    await page.getByLabel("Name").fill("Ops <b>channel</b>");
    await page.getByLabel("Receiver URL").fill("https://hooks.example.test/secondshift");
    await page.getByLabel("Only these jobs").fill("triage");
    await page.getByLabel("Failed").check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secretBox = page.getByLabel("Signing secret");
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole("table", { name: "Webhooks" }).getByText("Ops <b>channel</b>").waitFor();
    expect(await page.getByRole("status").filter({ hasText: "added" }).count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-secret-once");

    // Send test: queued where the server has webhooks.testDelivery, else said to be missing.
    await page.getByRole("button", { name: "Send test report to Ops <b>channel</b>" }).click();
    await page
      .getByText(
        /Test report queued for "Ops <b>channel<\/b>"|Test delivery is not available on this server yet/,
      )
      .waitFor();

    // Shown once: a reload has it nowhere, not in the page and not in the HTML.
    const html = await (await context.request.get(`/w/${seed.workspaceId}/webhooks`)).text();
    expect(html).not.toContain(secret);
    await page.reload();
    await page.getByRole("table", { name: "Webhooks" }).waitFor();
    expect(await page.getByLabel("Signing secret").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);

    // A report that failed twice: every attempt shows; Redeliver asks, then says what it did.
    const webhook = await app.db.webhook.findFirstOrThrow({
      where: { workspaceId: seed.workspaceId },
    });
    const run = await seedRun(app.db, seed, { status: "FAILED" });
    const delivery = await app.db.webhookDelivery.create({
      data: {
        workspaceId: seed.workspaceId,
        webhookId: webhook.id,
        runId: run.id,
        status: "FAILED",
        attemptCount: 2,
        attempts: {
          create: [
            {
              statusCode: 500,
              error: "The receiver answered 500.",
              durationMs: 120,
            },
            {
              statusCode: null,
              error: "The receiver did not answer in time.",
              durationMs: 10_000,
            },
          ],
        },
      },
    });
    await page.reload();
    const item = page.locator(`[data-delivery="${delivery.id}"]`);
    await item.getByText("The receiver did not answer in time.").waitFor();
    expect(await item.getByText("HTTP 500").count()).toBe(1);
    expect(await item.getByText("no response").count()).toBe(1);
    await page.getByLabel("Delivery status").selectOption("DELIVERED");
    await page.getByText("No delivery matches these filters.").waitFor();
    await page.getByLabel("Delivery status").selectOption("FAILED");
    await item.waitFor();
    await item.getByRole("button", { name: "Redeliver" }).click();
    const dialog = page.getByRole("dialog", { name: "Send this report again?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Redeliver" }).click();
    await page.getByText(/Redelivery scheduled/).waitFor();
    // Pending again: it leaves the "Failed" filter and shows as pending without it.
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(0);
    await page.getByLabel("Delivery status").selectOption("");
    await item.getByText("Pending").waitFor();
    expect(await item.getByRole("button", { name: "Redeliver" }).count()).toBe(0);
    const after = await app.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(after.status).toBe("PENDING");
    await screenshot(page, "webhooks-deliveries");
  }, 120_000);
});

describe("audit log", () => {
  it("lists what was done, filters by action, and links the exports with the same filters", async () => {
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/audit`);
    const table = page.getByRole("table", { name: "Audit log" });
    await table.waitFor();
    await table.getByText("webhook.created").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "audit-log");

    await page.getByLabel("Action").fill("webhook.redelivered");
    await expect
      .poll(async () =>
        (await table.locator("tbody tr td:nth-child(3)").allTextContents()).join(","),
      )
      .toMatch(/^(webhook\.redelivered,?)+$/);
    const csv = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
    const ndjson = await page.getByRole("link", { name: "Download NDJSON" }).getAttribute("href");
    for (const [href, format] of [
      [csv, "csv"],
      [ndjson, "ndjson"],
    ] as const) {
      const url = new URL(href ?? "", app.origin);
      expect(url.pathname).toBe("/api/audit/export");
      expect(url.searchParams.get("workspaceId")).toBe(seed.workspaceId);
      expect(url.searchParams.get("format")).toBe(format);
      expect(url.searchParams.get("action")).toBe("webhook.redelivered");
    }
    await page.getByLabel("Action").fill("no.such.action");
    await page.getByText("No entry matches these filters").waitFor();
    await screenshot(page, "audit-filtered");
  }, 60_000);
});
