// Links that name only a run (`/runs/<id>`, as webhook reports carried before they named the
// workspace): a member lands on the run's page, through sign-in when signed out; anyone else
// gets the ordinary 404 page, the same as for a run that does not exist.
import { randomUUID } from "node:crypto";
import { createUser } from "@secondshift/accounts/testing";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Browser } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { launchBrowser, signInContext, startWebApp, type WebApp } from "../testing/index.ts";

let app: WebApp;
let browser: Browser;
let seed: SeededWorkspace;
let other: SeededWorkspace;
const password = "run links passphrase 42";
let member: { email: string };
let stranger: { email: string };

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser] = await Promise.all([startWebApp({ database: testDatabase }), launchBrowser()]);
  [seed, other] = await Promise.all([
    seedWorkspace(app.db, { name: "links-team" }),
    seedWorkspace(app.db, { name: "other-team" }),
  ]);
  member = await createUser(app.db, password, { workspaceId: seed.workspaceId, role: "VIEWER" });
  stranger = await createUser(app.db, password, { workspaceId: other.workspaceId, role: "OWNER" });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe("/runs/<id>", () => {
  it("takes a signed-out member through sign-in to the run's page in its workspace", async () => {
    const run = await seedRun(app.db, seed, { status: "SUCCEEDED" });
    const context = await browser.newContext({ baseURL: app.origin });
    const page = await context.newPage();
    await page.goto(`/runs/${run.id}`);
    await page.getByLabel("Email").fill(member.email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.pathname === `/w/${seed.workspaceId}/runs/${run.id}`);
    await page.getByRole("heading", { level: 1, name: `Run ${run.id.slice(-8)}` }).waitFor();
    // Signed in, the link goes straight there.
    await page.goto(`/runs/${run.id}`);
    await page.waitForURL((url) => url.pathname === `/w/${seed.workspaceId}/runs/${run.id}`);
    await context.close();
  });

  it("[P05] is the 404 page for a run of another workspace, as for one that does not exist", async () => {
    const run = await seedRun(app.db, seed, { status: "SUCCEEDED" });
    const context = await browser.newContext({ baseURL: app.origin });
    await signInContext(context, app.origin, { email: stranger.email, password });
    const page = await context.newPage();
    for (const id of [run.id, randomUUID(), "not-a-run"]) {
      const response = await page.goto(`/runs/${id}`);
      expect(response?.status()).toBe(404);
      await page.getByRole("heading", { name: "Not found" }).waitFor();
      expect(new URL(page.url()).pathname).toBe(`/runs/${id}`);
    }
    await context.close();
  });
});
