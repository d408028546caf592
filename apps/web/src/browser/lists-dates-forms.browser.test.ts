// Dates, list filters and forms across the workspace screens, in a browser whose locale and
// time zone differ from the server's (en-US, Los Angeles): every date renders as the exact UTC
// time on the server and switches to a relative time only after hydration, with no hydration
// error; the runs, audit and deliveries filters live in the URL (reload and direct links keep
// them, the server renders the filtered rows); a form the server refuses keeps what was typed.
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
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

let app: WebApp;
let browser: Browser;
let seed: SeededWorkspace;
let context: BrowserContext;
const password = "lists dates forms passphrase 42";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The exact UTC text the app must show for an ISO instant (an oracle of its own). */
function utcText(iso: string): string {
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/** Console errors and uncaught page errors, as React reports a hydration mismatch. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}
const hydrationErrors = (errors: string[]) =>
  errors.filter((e) => /hydrat|#418|#423|#425|Minified React error/i.test(e));

dbTest.beforeAll(async ({ testDatabase }) => {
  // Loopback allowed (development): the webhooks below are plain http to a loopback port, which
  // production refuses since the outbound address rules (wt/urls).
  [app, browser] = await Promise.all([
    startWebApp({ database: testDatabase, env: LOOPBACK_ALLOWED }),
    launchBrowser(),
  ]);
  seed = await seedWorkspace(app.db, { name: "lists-team", withProvider: true });
  // Every getting-started step done (the seed has a repository and an approved job): the
  // overview shows its panels, not the checklist.
  await app.db.connection.create({
    data: {
      workspaceId: seed.workspaceId,
      kind: "GITHUB",
      label: "gh",
      endpoint: "https://api.github.com",
    },
  });
  const owner = await createUser(app.db, password, {
    workspaceId: seed.workspaceId,
    role: "OWNER",
  });
  context = await browser.newContext({
    baseURL: app.origin,
    locale: "en-US",
    timezoneId: "America/Los_Angeles",
  });
  await signInContext(context, app.origin, { email: owner.email, password });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("dates", () => {
  it("the server renders exact UTC times; after hydration they read relative, exact on hover; no hydration error", async () => {
    const run = await seedRun(app.db, seed, { status: "RUNNING" });
    await seedRun(app.db, seed, { status: "SUCCEEDED" });
    await app.db.auditEvent.create({
      data: {
        workspaceId: seed.workspaceId,
        actorType: "SYSTEM",
        actorId: "system",
        action: "workspace.checked",
      },
    });
    await mutateAs(context, app.origin, "webhooks.create", {
      workspaceId: seed.workspaceId,
      name: "Dates hook",
      url: "http://127.0.0.1:9/hook",
    });
    const w = `/w/${seed.workspaceId}`;
    const screens = [w, `${w}/runs`, `${w}/runs/${run.id}`, `${w}/audit`, `${w}/webhooks`];
    screens.push(`${w}/members`, "/account/sessions");
    for (const path of screens) {
      const html = await (await context.request.get(path)).text();
      // Server HTML: a <time> with the ISO instant, its exact UTC text shown and as the title.
      const served = /<time datetime="([^"]+)" title="([^"]+)">([^<]+)<\/time>/i.exec(html);
      expect(served, path).not.toBeNull();
      const [, iso, title, text] = served!;
      expect(title, path).toBe(utcText(iso!));
      expect(text, path).toBe(title);

      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(path);
      const time = page.locator(`time[datetime="${iso}"]`).first();
      // Hydrated and mounted: relative now, the exact UTC time on hover.
      await expect.poll(() => time.textContent(), { message: path }).toMatch(/ago|just now|^in /);
      expect(await time.getAttribute("title")).toBe(utcText(iso!));
      await time.hover();
      expect(hydrationErrors(errors), path).toEqual([]);
      await page.close();
    }
    const page = await context.newPage();
    await page.goto(`${w}/runs`);
    await page.locator("time").first().hover();
    await screenshot(page, "dates-runs-relative");
    await page.close();
  }, 120_000);
});

describe("filters in the URL", () => {
  it("runs: a filter survives a reload, a link with filters opens filtered, rendered by the server", async () => {
    const old = await seedRun(app.db, seed, { status: "FAILED" });
    await app.db.run.update({
      where: { id: old.id },
      data: { queuedAt: new Date("2025-03-01T12:00:00.000Z") },
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`/w/${seed.workspaceId}/runs`);
    const rows = page.getByRole("table", { name: "Runs" }).locator("tbody tr");
    await expect.poll(() => rows.count()).toBeGreaterThan(1);

    await page.getByLabel("Status").selectOption("FAILED");
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe("FAILED");
    await expect.poll(() => rows.count()).toBe(1);
    await page.reload();
    expect(await page.getByLabel("Status").inputValue()).toBe("FAILED");
    await expect.poll(() => rows.count()).toBe(1);
    await page.getByRole("link", { name: new RegExp(`^Run ${old.id.slice(-8)}`) }).waitFor();

    // A day filter typed ISO, kept in the URL; a half-typed day filters nothing and says so.
    await page.getByLabel("Queued from").fill("2025-03");
    await page.getByText("Not a day yet: YYYY-MM-DD").waitFor();
    await page.getByLabel("Queued from").fill("2025-03-01");
    await expect.poll(() => new URL(page.url()).searchParams.get("since")).toBe("2025-03-01");

    // Straight from a link: the server's HTML already holds the filtered rows and filters.
    const link = `/w/${seed.workspaceId}/runs?status=FAILED&since=2025-03-01&until=2025-03-01`;
    const html = await (await context.request.get(link)).text();
    expect(html).toContain(old.id.slice(-8));
    const direct = await context.newPage();
    const directErrors = watchErrors(direct);
    const listCalls: string[] = [];
    direct.on("request", (r) => {
      if (r.url().includes("runs.list")) listCalls.push(r.url());
    });
    await direct.goto(link);
    const directRows = direct.getByRole("table", { name: "Runs" }).locator("tbody tr");
    await expect.poll(() => directRows.count()).toBe(1);
    expect(await direct.getByLabel("Status").inputValue()).toBe("FAILED");
    expect(await direct.getByLabel("Queued from").inputValue()).toBe("2025-03-01");
    expect(await direct.getByLabel("Queued until").inputValue()).toBe("2025-03-01");
    // Same query key on both sides: the prefetched page is used, not asked for again.
    expect(listCalls).toEqual([]);
    expect(await seriousA11yViolations(direct)).toEqual([]);
    await screenshot(direct, "runs-filtered-from-link");
    expect(hydrationErrors([...errors, ...directErrors])).toEqual([]);
  }, 90_000);

  it("audit log and deliveries: filters survive a reload and open from a link", async () => {
    await app.db.auditEvent.create({
      data: {
        workspaceId: seed.workspaceId,
        actorType: "SYSTEM",
        actorId: "system",
        action: "rare.audit.action",
      },
    });
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/audit`);
    const table = page.getByRole("table", { name: "Audit log" });
    await table.waitFor();
    await page.getByLabel("Action").fill("rare.audit.action");
    await expect
      .poll(() => new URL(page.url()).searchParams.get("action"))
      .toBe("rare.audit.action");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    await page.reload();
    expect(await page.getByLabel("Action").inputValue()).toBe("rare.audit.action");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    const csv = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
    expect(new URL(csv ?? "", app.origin).searchParams.get("action")).toBe("rare.audit.action");

    const webhook = await app.db.webhook.findFirstOrThrow({
      where: { workspaceId: seed.workspaceId },
    });
    const failedRun = await seedRun(app.db, seed, { status: "FAILED" });
    const failed = await app.db.webhookDelivery.create({
      data: {
        workspaceId: seed.workspaceId,
        webhookId: webhook.id,
        runId: failedRun.id,
        status: "FAILED",
      },
    });
    await app.db.webhookDelivery.create({
      data: { workspaceId: seed.workspaceId, webhookId: webhook.id, status: "DELIVERED" },
    });
    await page.goto(`/w/${seed.workspaceId}/webhooks`);
    const deliveries = page.getByRole("list", { name: "Deliveries" }).locator(":scope > li");
    await expect.poll(() => deliveries.count()).toBe(2);
    await page.getByLabel("Delivery status").selectOption("FAILED");
    await expect.poll(() => new URL(page.url()).searchParams.get("status")).toBe("FAILED");
    await expect.poll(() => deliveries.count()).toBe(1);
    await page.reload();
    expect(await page.getByLabel("Delivery status").inputValue()).toBe("FAILED");
    await expect.poll(() => deliveries.count()).toBe(1);
    await page.locator(`[data-delivery="${failed.id}"]`).waitFor();

    const direct = await context.newPage();
    await direct.goto(`/w/${seed.workspaceId}/webhooks?status=DELIVERED&webhookId=${webhook.id}`);
    expect(await direct.getByLabel("Delivery status").inputValue()).toBe("DELIVERED");
    expect(await direct.getByLabel("Webhook", { exact: true }).inputValue()).toBe(webhook.id);
    const directItems = direct.getByRole("list", { name: "Deliveries" }).locator(":scope > li");
    await expect.poll(() => directItems.count()).toBe(1);
    expect(await direct.locator(`[data-delivery="${failed.id}"]`).count()).toBe(0);
    await screenshot(direct, "deliveries-filtered-from-link");

    // The overview's Redeliver opens the deliveries filtered to the failed ones.
    await direct.goto(`/w/${seed.workspaceId}`);
    await direct.getByRole("link", { name: "Redeliver" }).first().click();
    await expect.poll(() => new URL(direct.url()).searchParams.get("status")).toBe("FAILED");
    expect(await direct.getByLabel("Delivery status").inputValue()).toBe("FAILED");
    await direct.locator(`[data-delivery="${failed.id}"]`).waitFor();
  }, 90_000);
});

describe("forms", () => {
  it("a webhook the server refuses keeps every typed value, with the server's reason", async () => {
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/webhooks`);
    const form = page.getByRole("form", { name: "Add a webhook" });
    await form.getByLabel("Name").fill("Refused hook");
    // A URL the browser accepts (type=url) but the server refuses (https only).
    await form.getByLabel("Receiver URL").fill("ftp://example.com/hook");
    await form.getByLabel("Only these jobs").fill("triage, nightly");
    await form.getByLabel("Failed").check();
    await form.getByRole("button", { name: "Add webhook" }).click();
    await form.getByRole("alert").filter({ hasText: "must use https" }).first().waitFor();
    expect(await form.getByLabel("Name").inputValue()).toBe("Refused hook");
    expect(await form.getByLabel("Receiver URL").inputValue()).toBe("ftp://example.com/hook");
    expect(await form.getByLabel("Only these jobs").inputValue()).toBe("triage, nightly");
    expect(await form.getByLabel("Failed").isChecked()).toBe(true);
    await screenshot(page, "webhook-form-refused");

    // Fixed and sent again: accepted, and only now the fields are cleared.
    await form.getByLabel("Receiver URL").fill("http://127.0.0.1:9/refused-then-fixed");
    await form.getByRole("button", { name: "Add webhook" }).click();
    await page.getByLabel("Signing secret").waitFor();
    expect(await form.getByLabel("Name").inputValue()).toBe("");
    expect(await form.getByLabel("Receiver URL").inputValue()).toBe("");
    expect(await form.getByLabel("Failed").isChecked()).toBe(false);
  }, 60_000);
});
