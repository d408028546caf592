// The server-side caller (pages rendered by the web process) acts exactly as the user the
// request's session cookie names — the cookie the HTTP API set — and cannot change the session.
import { createUser } from "@secondshift/accounts/testing";
import { seedTenant } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { describe, expect } from "vitest";
import { createServerApi } from "./server-caller.ts";
import { startTestApi } from "./testing/index.ts";

const password = "server caller passphrase 42";

const test = dbTest
  .extend("api", { scope: "file" }, async ({ db }, { onCleanup }) => {
    const api = await startTestApi(db);
    onCleanup(() => api.close());
    return api;
  })
  .extend("server", { scope: "file" }, ({ api }) =>
    createServerApi({
      accounts: api.accounts.deps,
      publicUrl: api.origin,
      setupToken: () => null,
      logger: createLogger({ name: "server-caller-test", destination: createMemorySink().stream }),
    }),
  );

const cookieHeader = (cookies: Map<string, string>) =>
  new Headers({ cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") });

describe("the server-side caller", () => {
  test("acts as the session the cookie names; without one it is signed out", async ({
    db,
    api,
    server,
  }) => {
    const tenant = await seedTenant(db);
    const user = await createUser(db, password, {
      workspaceId: tenant.workspaceId,
      role: "VIEWER",
    });
    const browser = api.browser();
    await browser.trpc.auth.signIn.mutate({ email: user.email, password });

    const caller = await server.createServerCaller(cookieHeader(browser.cookies));
    const me = await caller.auth.me();
    expect(me.email).toBe(user.email);
    expect(me.workspaces.map((w) => w.id)).toEqual([tenant.workspaceId]);
    // The role checks are the procedures' own: a viewer cannot invite, here either.
    await expect(
      caller.auth.invitations.create({
        workspaceId: tenant.workspaceId,
        email: "x@example.test",
        role: "VIEWER",
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });

    const anonymous = await server.createServerCaller(new Headers());
    await expect(anonymous.auth.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const forged = await server.createServerCaller(new Headers({ cookie: "ss_session=ss_ses_x" }));
    await expect(forged.auth.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("a server render cannot set or clear the session cookie", async ({ server }) => {
    const caller = await server.createServerCaller(new Headers());
    await expect(caller.auth.signOut()).rejects.toThrow(/cannot change the session/);
  });
});
