// First-run setup when the operator's one-time token is required (the default): the link the
// web service prints fills the token in; a wrong token gets the API's refusal on the page.
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Browser } from "playwright-core";
import { afterAll, expect, it } from "vitest";
import { launchBrowser, screenshot, startWebApp, type WebApp } from "../testing/index.ts";

let app: WebApp;
let browser: Browser;

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser] = await Promise.all([
    startWebApp({ database: testDatabase, setupTokenRequired: true }),
    launchBrowser(),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

it("the printed setup link fills the token in; a wrong token is refused with the API's message", async () => {
  const link = /(http:\/\/\S+\/setup\?token=[A-Za-z0-9_-]+)/.exec(app.output())?.[1];
  expect(link, app.output()).toBeTruthy();
  const page = await (await browser.newContext()).newPage();

  await page.goto(`${app.origin}/setup`);
  await page.getByLabel("Setup token").fill("not-the-token");
  await page.getByLabel("Your name").fill("Olive");
  await page.getByLabel("Email").fill("olive@example.test");
  await page.getByLabel("Password").fill("a long passphrase 42");
  await page.getByLabel("Workspace name").fill("Ops");
  await page.getByRole("button", { name: "Create account and workspace" }).click();
  const alert = page.locator("form").getByRole("alert");
  await alert.waitFor();
  expect(await alert.textContent()).toMatch(/setup/i);
  await screenshot(page, "setup-wrong-token");

  await page.goto(link!);
  expect(await page.getByLabel("Setup token").inputValue()).toBe(
    new URL(link!).searchParams.get("token"),
  );
  await page.getByLabel("Your name").fill("Olive");
  await page.getByLabel("Email").fill("olive@example.test");
  await page.getByLabel("Password").fill("a long passphrase 42");
  await page.getByLabel("Workspace name").fill("Ops");
  await page.getByRole("button", { name: "Create account and workspace" }).click();
  await page.waitForURL(/\/w\/[0-9a-f-]{36}$/);
}, 120_000);
