// Webhooks and the audit log in a real browser against the real web process and database:
// adding a webhook shows its signing secret once (never again, never in a page), a test report
// sent from the page is delivered by the worker's real delivery step (signed, to a loopback
// receiver) and shows with its attempt, deliveries show every attempt and a failed one can be
// sent again; the audit log lists those changes, filters them, and links its exports.
import { readFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { createOutboundClient, type OutboundClient } from "@secondshift/netguard";
import { deliverDue, SIGNATURE_HEADER, TEST_EVENT, verifySignature } from "@secondshift/webhooks";
import type { Browser, BrowserContext } from "playwright-core";
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
let outbound: OutboundClient;
let ownerId: string;
const password = "webhook screens passphrase 42";

/** A loopback webhook receiver that answers 204 and keeps what it got. */
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
const receiver: Server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    res.writeHead(204).end();
  });
});

/** One pass of the worker's delivery step, as the worker runs it (netguard, allowing loopback). */
function deliverNow() {
  const masker = new SecretMasker();
  return deliverDue(
    app.db,
    {
      keyring: app.keyring,
      client: outbound,
      masker,
      logger: createLogger({ name: "deliver", destination: createMemorySink().stream, masker }),
      runLink: (run) => `${app.origin}/w/${run.workspaceId}/runs/${run.id}`,
    },
    { now: new Date() },
  );
}

dbTest.beforeAll(async ({ testDatabase }) => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  outbound = createOutboundClient({
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: ["127.0.0.0/8"],
    timeoutMs: 10_000,
  });
  // Development with loopback allowed (the receiver is a loopback fake); other private
  // addresses stay refused. No real DNS: only these names resolve.
  const hosts = { "hooks.example.com": ["93.184.215.14"] };
  [app, browser] = await Promise.all([
    startWebApp({ database: testDatabase, env: LOOPBACK_ALLOWED, hosts }),
    launchBrowser(),
  ]);
  seed = await seedWorkspace(app.db, { name: "hooks-team" });
  const owner = await createUser(app.db, password, {
    workspaceId: seed.workspaceId,
    role: "OWNER",
  });
  ownerId = owner.id;
  context = await browser.newContext({ baseURL: app.origin });
  await signInContext(context, app.origin, { email: owner.email, password });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await outbound?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

describe("webhooks", () => {
  it("adding a webhook shows its signing secret once; a test report is delivered and shows its attempt; a failed delivery is sent again", async () => {
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/webhooks`);
    await page.getByText("No webhooks yet").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "webhooks-empty");

    await page.getByLabel("Name").fill("Ops <b>channel</b>");
    const { port } = receiver.address() as AddressInfo;
    await page.getByLabel("Receiver URL").fill(`http://127.0.0.1:${port}/secondshift`);
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

    // Send test: queued, then delivered by the worker's step, signed with the secret shown once.
    await page.getByRole("button", { name: "Send test report to Ops <b>channel</b>" }).click();
    await page.getByText('Test report queued for "Ops <b>channel</b>"').waitFor();
    const test = await app.db.webhookDelivery.findFirstOrThrow({
      where: { workspaceId: seed.workspaceId, runId: null },
    });
    expect(await deliverNow()).toMatchObject({ attempted: 1, delivered: 1 });
    expect(received).toHaveLength(1);
    const signature = String(received[0]!.headers[SIGNATURE_HEADER.toLowerCase()]);
    expect(verifySignature(signature, received[0]!.body, secret).ok).toBe(true);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: TEST_EVENT });
    await page.reload();
    const sent = page.locator(`[data-delivery="${test.id}"]`);
    await sent.getByText("Test report").waitFor();
    expect(await sent.getByText("Delivered", { exact: true }).count()).toBe(1);
    expect(await sent.getByText("HTTP 204").count()).toBe(1);

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
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(0);
    await sent.waitFor();
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
    // The CSV through the page's link: the header row, then the filtered entry.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await download.path(), "utf8")).trim().split(/\r?\n/);
    expect(lines[0]!.replaceAll('"', "")).toBe(
      "id,createdAt,actorType,actorId,action,targetType,targetId,targetLabel,toolName,connectionId,outcome,durationMs",
    );
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const row of lines.slice(1)) {
      const cells = row.split(",").map((cell) => cell.replaceAll('"', ""));
      expect(cells.slice(2, 5)).toEqual(["USER", ownerId, "webhook.redelivered"]);
      expect(cells[1]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }

    await page.getByLabel("Action").fill("no.such.action");
    await page.getByText("No entry matches these filters").waitFor();
    await screenshot(page, "audit-filtered");
  }, 60_000);

  it("names what each entry refers to as it was called then, with the id on hover; older rows show the short id", async () => {
    const ws = seed.workspaceId;
    const webhook = await app.db.webhook.findFirstOrThrow({
      where: { workspaceId: ws, name: "Ops <b>channel</b>" },
    });
    // Renamed after it was created: the older rows keep the name they were written with.
    await mutateAs(context, app.origin, "webhooks.update", {
      workspaceId: ws,
      webhookId: webhook.id,
      name: "Ops pager",
    });
    const hostile = '<img src=x onerror="window.__pwned=1">';
    await app.db.auditEvent.createMany({
      data: [
        // A row written before labels existed: the short id, the whole id on hover.
        {
          workspaceId: ws,
          actorType: "SYSTEM",
          actorId: "repo-sync",
          action: "job.created",
          targetType: "Job",
          targetId: seed.jobId,
        },
        // A job name from a repository is text, never markup.
        {
          workspaceId: ws,
          actorType: "SYSTEM",
          actorId: "repo-sync",
          action: "job.request_changed",
          targetType: "Job",
          targetId: seed.jobId,
          targetLabel: hostile,
        },
      ],
    });
    const page = await context.newPage();
    await page.goto(`/w/${ws}/audit`);
    const table = page.getByRole("table", { name: "Audit log" });
    const row = (action: string) =>
      table.locator("tbody tr").filter({ has: page.getByText(action, { exact: true }) });
    const target = (action: string) => row(action).first().locator("td:nth-child(4) span");
    await row("webhook.updated").first().waitFor();
    expect(await target("webhook.updated").innerText()).toBe("Ops pager");
    expect(await target("webhook.created").innerText()).toBe("Ops <b>channel</b>");
    expect(await target("webhook.created").getAttribute("title")).toBe(webhook.id);
    expect(await target("webhook.test_sent").innerText()).toBe("Ops <b>channel</b>");
    expect(await target("job.created").innerText()).toBe(seed.jobId.slice(-8));
    expect(await target("job.created").getAttribute("title")).toBe(seed.jobId);
    expect(await target("job.request_changed").innerText()).toBe(hostile);
    expect(await table.locator("img, b").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "audit-names");
  }, 60_000);

  it("filters by tool on the server: an entry far past the first page is found", async () => {
    const run = await seedRun(app.db, seed, { status: "SUCCEEDED" });
    const toolCall = (toolName: string, createdAt: Date) => ({
      workspaceId: seed.workspaceId,
      actorType: "RUN" as const,
      actorId: run.id,
      action: "tool.call",
      toolName,
      outcome: "ok",
      createdAt,
    });
    await app.db.auditEvent.create({
      data: toolCall("rare_tool", new Date("2025-03-01T12:00:00Z")),
    });
    await app.db.auditEvent.createMany({
      data: Array.from({ length: 60 }, () => toolCall("echo", new Date())),
    });
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/audit`);
    const table = page.getByRole("table", { name: "Audit log" });
    const rows = table.locator("tbody tr");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(50);
    await page.getByLabel("Tool").fill("rare_tool");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    expect(await table.getByText("rare_tool").count()).toBe(1);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);
    const csv = await page.getByRole("link", { name: "Download CSV" }).getAttribute("href");
    expect(new URL(csv ?? "", app.origin).searchParams.get("toolName")).toBe("rare_tool");
  }, 60_000);
});

describe("owner URLs the outbound policy refuses", () => {
  it("[C21] saving a webhook to a private address or an unknown name is refused in words; rows saved before are marked", async () => {
    const ws = seed.workspaceId;
    const page = await context.newPage();
    await page.goto(`/w/${ws}/webhooks`);
    await page.getByRole("table", { name: "Webhooks" }).waitFor();
    const add = async (name: string, url: string) => {
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Receiver URL").fill(url);
      await page.getByRole("button", { name: "Add webhook" }).click();
    };
    await add("internal", "https://10.0.0.5/hook");
    const refused = page.getByRole("alert").filter({ hasText: "private address (10.0.0.5)" });
    await refused.waitFor();
    const words = await refused.innerText();
    expect(words).toMatch(/SecondShift refuses private, loopback, link-local and metadata/);
    expect(words).toContain("SECONDSHIFT_ALLOWED_PRIVATE_CIDRS");
    expect(words).not.toMatch(/not reachable/i);
    await screenshot(page, "webhooks-address-refused");
    await add("nowhere", "https://hooks.nowhere.example/x");
    await page
      .getByRole("alert")
      .filter({ hasText: "could not be resolved; check the name" })
      .waitFor();
    const saved = await app.db.webhook.count({
      where: { workspaceId: ws, name: { in: ["internal", "nowhere"] } },
    });
    expect(saved).toBe(0);
    // A public name is saved (resolved by the fake DNS, never dialled).
    await add("public", "https://hooks.example.com/x");
    await page.getByLabel("Signing secret").waitFor();

    // Rows saved before the check: a webhook whose last delivery the policy refused, and a
    // provider, a connection and a repository with private addresses.
    const legacy = await app.db.webhook.create({
      data: {
        workspaceId: ws,
        name: "legacy-hook",
        urlCiphertext: new Uint8Array([0]),
        secretCiphertext: new Uint8Array([0]),
      },
    });
    await app.db.webhookDelivery.create({
      data: {
        workspaceId: ws,
        webhookId: legacy.id,
        event: "webhook.test",
        status: "FAILED",
        attemptCount: 1,
        lastError:
          "The webhook's host resolves to an address that outbound requests may not reach. (ADDRESS_NOT_PUBLIC)",
      },
    });
    await app.db.modelProvider.create({
      data: {
        workspaceId: ws,
        name: "legacy-llm",
        kind: "OPENAI",
        baseUrl: "https://10.0.0.9/v1",
        apiKeyCiphertext: new Uint8Array([0]),
      },
    });
    await app.db.connection.create({
      data: {
        workspaceId: ws,
        kind: "MCP",
        label: "legacy-mcp",
        endpoint: "https://192.168.7.7/mcp",
      },
    });
    await app.db.repository.create({
      data: {
        workspaceId: ws,
        fullName: "acme/legacy",
        cloneUrl: "https://172.16.0.3/acme/legacy.git",
      },
    });
    const marked = async (path: string, text: RegExp) => {
      await page.goto(`/w/${ws}/${path}`);
      const notice = page.getByText(text);
      await notice.waitFor();
      expect(await page.getByText("Address not allowed", { exact: true }).count()).toBe(1);
      expect(await seriousA11yViolations(page)).toEqual([]);
    };
    await marked("webhooks", /The last delivery was refused by the outbound policy/);
    await screenshot(page, "webhooks-address-problem");
    await marked("providers", /The base URL points to a private address \(10\.0\.0\.9\)/);
    await marked("connections", /The endpoint points to a private address \(192\.168\.7\.7\)/);
    await marked("repositories", /The clone URL points to a private address \(172\.16\.0\.3\)/);
    await screenshot(page, "repositories-address-problem");
    await page.close();
  }, 120_000);
});
