// The owner web app's foundation in a real browser against the real web process: first-run
// setup, sign-in (and its error), the workspace shell, the security headers, and the CSP
// stopping an injected inline script.
import { createUser } from "@secondshift/accounts/testing";
import { seedTenant } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Browser, Page } from "playwright-core";
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

let app: WebApp;
let browser: Browser;
const owner = {
  name: "Olive Owner",
  email: "olive@example.test",
  password: "a long passphrase 42",
};

dbTest.beforeAll(async ({ testDatabase }) => {
  [app, browser] = await Promise.all([startWebApp({ database: testDatabase }), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL: app.origin });
  return context.newPage();
}

async function signIn(page: Page, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("the owner web app", () => {
  it("setup → sign out → sign in → the workspace shell shows; a wrong password is explained", async () => {
    const page = await newPage();
    const cspViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto("/");
    await page.waitForURL("**/setup");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "setup");

    await page.getByLabel("Your name").fill(owner.name);
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByLabel("Workspace name").fill("Platform team");
    await page.getByRole("button", { name: "Create account and workspace" }).click();
    await page.waitForURL(/\/w\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.getByTestId("signed-in-user").textContent()).toBe(owner.name);
    expect(await page.getByRole("navigation", { name: "Workspace" }).isVisible()).toBe(true);
    await screenshot(page, "workspace-shell");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL("**/sign-in");
    // Signed out, a workspace page sends the visitor to sign-in, remembering the page.
    const unknown = "/w/00000000-0000-4000-8000-000000000000";
    await page.goto(new URL(page.url()).origin + unknown);
    await page.waitForURL(`**/sign-in?next=${encodeURIComponent(unknown)}`);
    await page.goto("/sign-in");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "sign-in");

    // The form works from the keyboard alone, in reading order.
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute("name"));
    for (let i = 0; i < 5 && (await focusedName()) !== "email"; i++) {
      await page.keyboard.press("Tab");
    }
    expect(await focusedName()).toBe("email");
    await page.keyboard.press("Tab");
    expect(await focusedName()).toBe("password");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Sign in");

    await signIn(page, "not the passphrase");
    // The form's alert (Next's route announcer is an empty alert of its own).
    const alert = page.locator("form").getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/email or password/i);
    expect(page.url()).toMatch(/\/sign-in$/);
    await screenshot(page, "sign-in-wrong-password");

    await signIn(page, owner.password);
    await page.waitForURL(/\/w\/[0-9a-f-]{36}$/);
    expect(await page.getByTestId("signed-in-user").textContent()).toBe(owner.name);
    // The app's own scripts and styles never trip its policy.
    expect(cspViolations).toEqual([]);
  }, 120_000);

  it("an invitation shows workspace, role and inviter; joining signs in; a used link is explained", async () => {
    const tenant = await seedTenant(app.db, { name: "invited-team" });
    const inviter = await createUser(app.db, owner.password, {
      workspaceId: tenant.workspaceId,
      role: "OWNER",
    });
    const ownerContext = await browser.newContext({ baseURL: app.origin });
    await signInContext(ownerContext, app.origin, {
      email: inviter.email,
      password: owner.password,
    });
    const { link } = (await mutateAs(ownerContext, app.origin, "auth.invitations.create", {
      workspaceId: tenant.workspaceId,
      email: "newcomer@example.test",
      role: "ADMIN",
    })) as { link: string };

    const page = await newPage();
    await page.goto(link);
    await page.getByText("invited-team").waitFor();
    expect(await page.getByText("Admin", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText("Test User").isVisible()).toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "invitation");
    await page.getByLabel("Your name").fill("Nora Newcomer");
    await page.getByLabel("Password").fill("newcomer passphrase 42");
    await page.getByRole("button", { name: "Join the workspace" }).click();
    await page.waitForURL(`**/w/${tenant.workspaceId}`);
    await expect.poll(() => page.getByTestId("signed-in-user").textContent()).toBe("Nora Newcomer");

    const again = await newPage();
    await again.goto(link);
    await again.getByText("This invitation was already used.", { exact: false }).waitFor();
    await screenshot(again, "invitation-used");
    expect(await again.getByRole("button", { name: "Join the workspace" }).count()).toBe(0);
  }, 120_000);

  it("sign-in returns to the page asked for, e.g. an OAuth failure met signed out; never off-site", async () => {
    const page = await newPage();
    await page.goto("/connections?oauth=failed&reason=SIGNED_OUT");
    await page.waitForURL(/\/sign-in\?next=/);
    await page.getByText("Sign in to continue where you were.").waitFor();
    await page.getByLabel("Email").fill(owner.email);
    await page.getByLabel("Password").fill(owner.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/w\/[0-9a-f-]{36}\/connections\?oauth=failed&reason=SIGNED_OUT$/);
    await page.getByText("you were signed out when the service sent you back").waitFor();

    // Any page asked for while signed out is where sign-in leads back to.
    const later = await newPage();
    await later.goto("/account/sessions?from=link");
    await later.waitForURL(/\/sign-in\?next=/);
    await later.getByLabel("Email").fill(owner.email);
    await later.getByLabel("Password").fill(owner.password);
    await later.getByRole("button", { name: "Sign in" }).click();
    await later.waitForURL("**/account/sessions?from=link");

    // A next that leaves the site is ignored: sign-in goes home instead (no open redirect).
    const other = await newPage();
    await other.goto(`/sign-in?next=${encodeURIComponent("//evil.example/")}`);
    expect(await other.getByText("Sign in to continue where you were.").count()).toBe(0);
    await other.getByLabel("Email").fill(owner.email);
    await other.getByLabel("Password").fill(owner.password);
    await other.getByRole("button", { name: "Sign in" }).click();
    await other.waitForURL(/\/w\/[0-9a-f-]{36}$/);
  }, 120_000);

  it("pages carry a CSP with a fresh nonce; every response the static security headers", async () => {
    const first = await fetch(`${app.origin}/sign-in`);
    const second = await fetch(`${app.origin}/sign-in`);
    const policy = first.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeTruthy();
    expect(second.headers.get("content-security-policy")).not.toContain(nonce);
    expect(policy).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'"]) {
      expect(policy).toContain(directive);
    }
    // Next put this request's nonce on its own scripts.
    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);

    for (const path of ["/sign-in", "/healthz", "/api/trpc/auth.setupStatus"]) {
      const response = await fetch(`${app.origin}${path}`);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(response.headers.get("content-security-policy"), path).toContain(
        "frame-ancestors 'none'",
      );
    }
  });

  it("the CSP blocks an inline script and event handler injected into the page's HTML", async () => {
    const page = await newPage();
    const consoleViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) consoleViolations.push(message.text());
    });
    // Record violations from the start (init scripts are the test's own, not the page's).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as { __violations?: string[] }).__violations = seen;
      document.addEventListener("securitypolicyviolation", (e) => seen.push(e.effectiveDirective));
    });
    // As if markup had slipped into the server's HTML: a parser-inserted inline script and an
    // inline event handler, without the nonce. The response keeps its real headers.
    await page.route("**/sign-in", async (route) => {
      const response = await route.fetch();
      const injected = (await response.text()).replace(
        "</body>",
        `<script>window.__injected = "script ran"</script>` +
          `<img alt="" src="data:," onerror="window.__injected = 'handler ran'"></body>`,
      );
      await route.fulfill({ response, body: injected });
    });
    await page.goto("/sign-in");
    // The page's own (nonced) scripts still ran: the form came alive (React hydrated).
    await page.getByLabel("Email").fill("someone@example.test");
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as { __violations?: string[] }).__violations))
      .toEqual(expect.arrayContaining(["script-src-elem", "script-src-attr"]));
    expect(await page.evaluate(() => (window as { __injected?: string }).__injected ?? null)).toBe(
      null,
    );
    expect(consoleViolations.length).toBeGreaterThanOrEqual(2);
  });
});
