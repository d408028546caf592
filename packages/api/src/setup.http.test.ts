import { dbTest } from "@secondshift/db/testing/vitest";
import type { TRPCClientError } from "@trpc/client";
import { describe, expect } from "vitest";
import type { AppRouter } from "./root.ts";
import { startTestApi, type TestApi } from "./testing/index.ts";

const setupToken = "the-printed-setup-token-0123456789";

// Setup is open only while no user exists: each test that starts an API starts it over the
// file's database emptied of users and workspaces (and every row that belongs to them).
const test = dbTest.extend("fresh", async ({ db }, { onCleanup }) => {
  await db.$executeRaw`TRUNCATE "User", "Workspace" CASCADE`;
  const started: TestApi[] = [];
  onCleanup(async () => {
    for (const api of started) await api.close();
  });
  return async (options: { setupToken?: string | null } = { setupToken }) => {
    const api = await startTestApi(db, options);
    started.push(api);
    return api;
  };
});

const input = (n: number, token?: string) => ({
  email: `owner${n}@example.test`,
  name: `Owner ${n}`,
  password: "a long enough passphrase",
  workspaceName: "Acme",
  setupToken: token,
});

const errorData = (e: unknown) => (e as TRPCClientError<AppRouter>).data;

describe("setup over HTTP", () => {
  test("needs the one-time token, signs the owner in with an HttpOnly SameSite=Lax cookie, then closes", async ({
    db,
    fresh,
  }) => {
    const api = await fresh();
    const browser = api.browser();
    expect(await browser.trpc.auth.setupStatus.query()).toEqual({
      needsSetup: true,
      tokenRequired: true,
    });

    const refused = await browser.trpc.auth.setup
      .mutate(input(1, "wrong"))
      .catch((e: unknown) => e);
    expect(errorData(refused)).toMatchObject({ code: "FORBIDDEN", reason: "SETUP_TOKEN_INVALID" });
    const missing = await browser.trpc.auth.setup.mutate(input(1)).catch((e: unknown) => e);
    expect(errorData(missing)).toMatchObject({ code: "FORBIDDEN", httpStatus: 403 });
    expect(await db.user.count()).toBe(0);

    const done = await browser.trpc.auth.setup.mutate(input(1, setupToken));
    expect(done.workspaceId).toBeTruthy();
    const [cookie] = browser.setCookies;
    // Plain http (development): the __Host- prefix needs Secure, so the cookie is ss_session.
    expect(cookie).toMatch(/^ss_session=ss_ses_[A-Za-z0-9_-]{43}; /);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Domain=/i);
    const me = await browser.trpc.auth.me.query();
    expect(me.workspaces).toEqual([
      expect.objectContaining({ id: done.workspaceId, role: "OWNER" }),
    ]);

    const again = await api
      .browser()
      .trpc.auth.setup.mutate(input(2, setupToken))
      .catch((e: unknown) => e);
    expect(errorData(again)).toMatchObject({ code: "CONFLICT", reason: "ALREADY_SET_UP" });
    expect(await browser.trpc.auth.setupStatus.query()).toEqual({
      needsSetup: false,
      tokenRequired: true,
    });
  });

  test("setup race over HTTP: two at once give exactly one owner; the other a clean 409", async ({
    db,
    fresh,
  }) => {
    const api = await fresh({ setupToken: null });
    const results = await Promise.allSettled([
      api.browser().trpc.auth.setup.mutate(input(1)),
      api.browser().trpc.auth.setup.mutate(input(2)),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(errorData(rejected?.reason)).toMatchObject({ code: "CONFLICT", httpStatus: 409 });
    expect(await db.user.count()).toBe(1);
    expect(await db.membership.count({ where: { role: "OWNER" } })).toBe(1);
  });

  test("over https the cookie is __Host-ss_session and Secure", async () => {
    const { cookieSettings } = await import("./cookies.ts");
    expect(cookieSettings("https://secondshift.example.com", 3600_000)).toEqual({
      name: "__Host-ss_session",
      secure: true,
      maxAgeSeconds: 3600,
    });
  });
});
