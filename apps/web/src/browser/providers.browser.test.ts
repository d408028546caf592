// The model providers screen against a loopback fake provider answering `GET /v1/models` in
// OpenAI's real wire format: Verify says in plain words that the key works (with its models) or
// was refused, and the list shows when it was last verified; allowed models and the default
// model are set on create and edited later, as the API stores them. The key never shows (P04).
import { randomUUID } from "node:crypto";
import { createUser } from "@secondshift/accounts/testing";
import { startFakeProvider, type FakeProvider } from "@secondshift/api/testing";
import { seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
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

const goodKey = `sk-proj-good-${randomUUID()}`;
const wrongKey = `sk-proj-wrong-${randomUUID()}`;
const password = "provider screens passphrase 42";
let app: WebApp;
let browser: Browser;
let provider: FakeProvider;
let seed: SeededWorkspace;
let context: BrowserContext;

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser, provider] = await Promise.all([
    startWebApp({ database: testDatabase, allowLoopbackOutbound: true }),
    launchBrowser(),
    startFakeProvider("OPENAI", goodKey),
  ]);
  seed = await seedWorkspace(app.db, { name: "provider-team" });
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
  await provider?.close();
});

async function addProvider(
  page: Awaited<ReturnType<BrowserContext["newPage"]>>,
  name: string,
  key: string,
) {
  // Scoped to the form: each row's closed "Edit models" dialog has fields of the same names.
  const form = page.getByRole("region", { name: "Add a model provider" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Kind").selectOption("OPENAI");
  await form.getByLabel("Base URL").fill(`${provider.url}/v1`);
  await form.getByLabel("Allowed models").fill("gpt-4o, gpt-4o-mini");
  await form.getByLabel("Default model").fill("gpt-4o-mini");
  await form.getByLabel("API key").fill(key);
  await form.getByRole("button", { name: "Add provider" }).click();
  await page.getByText(`${name} was added`).waitFor();
}

describe("model providers", () => {
  it("[P04] Verify says the key works with its models, or that it was refused; the list shows when it was verified", async () => {
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/providers`);
    await page.getByText("No model provider yet").waitFor();
    await addProvider(page, "Good gateway", goodKey);
    await addProvider(page, "Wrong gateway", wrongKey);
    const table = page.getByRole("table", { name: "Model providers" });
    const good = table.getByRole("row").filter({ hasText: "Good gateway" });
    const wrong = table.getByRole("row").filter({ hasText: "Wrong gateway" });
    await good.getByText("gpt-4o, gpt-4o-mini").waitFor();
    expect(await good.getByText("not verified yet").count()).toBe(1);
    const stored = await app.db.modelProvider.findFirstOrThrow({ where: { name: "Good gateway" } });
    expect(stored.allowedModels).toEqual(["gpt-4o", "gpt-4o-mini"]);
    expect(stored.defaultModel).toBe("gpt-4o-mini");

    const before = provider.requests.length;
    await page.getByRole("button", { name: "Verify Good gateway" }).click();
    await good.getByText("The key works: 2 models available (gpt-4o, gpt-4o-mini).").waitFor({
      timeout: 30_000,
    });
    await good.getByText(/^verified (\d|just now|.* ago)/).waitFor({ timeout: 30_000 });
    expect(provider.requests.slice(before)).toMatchObject([{ method: "GET", path: "/v1/models" }]);

    await page.getByRole("button", { name: "Verify Wrong gateway" }).click();
    await wrong.getByText(/Key refused\..*the key was refused/).waitFor({ timeout: 30_000 });
    expect(await wrong.getByText("not verified yet").count()).toBe(1);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "providers-verified");

    // Neither key nor the provider's refusal (which echoes part of the key) is in the page.
    const html = await page.content();
    for (const text of [goodKey, wrongKey, wrongKey.slice(0, 12), "Incorrect API key"]) {
      expect(html).not.toContain(text);
    }
    await page.reload();
    await good.getByText(/^verified (\d|just now|.* ago)/).waitFor();
  }, 120_000);

  it("allowed models and the default model are edited; a default outside them is refused", async () => {
    const page = await context.newPage();
    await page.goto(`/w/${seed.workspaceId}/providers`);
    await page.getByRole("button", { name: "Edit models of Good gateway" }).click();
    const dialog = page.getByRole("dialog", { name: "Models of Good gateway" });
    await dialog.waitFor();
    await dialog.getByLabel("Allowed models").fill("gpt-4o\ngpt-4.1");
    await dialog.getByLabel("Default model").fill("gpt-4o-mini");
    await dialog.getByRole("button", { name: "Save models" }).click();
    await dialog.getByRole("alert").waitFor();

    await dialog.getByLabel("Default model").fill("gpt-4.1");
    await dialog.getByRole("button", { name: "Save models" }).click();
    await page.getByText("Good gateway now allows gpt-4o, gpt-4.1.").waitFor();
    const row = page
      .getByRole("table", { name: "Model providers" })
      .getByRole("row")
      .filter({ hasText: "Good gateway" });
    await row.getByText("gpt-4.1, gpt-4o").waitFor();
    const stored = await app.db.modelProvider.findFirstOrThrow({ where: { name: "Good gateway" } });
    expect(stored).toMatchObject({ allowedModels: ["gpt-4.1", "gpt-4o"], defaultModel: "gpt-4.1" });

    await page.getByRole("button", { name: "Edit models of Good gateway" }).click();
    await dialog.getByLabel("Allowed models").fill("");
    await dialog.getByRole("button", { name: "Save models" }).click();
    await page.getByText("Good gateway now allows any model.").waitFor();
    await row.getByRole("cell", { name: "Any model", exact: true }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
  }, 120_000);
});
