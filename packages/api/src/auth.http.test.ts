// Attacks on the owner API over real HTTP: CSRF (cross-site form posts, wrong Origin), session
// fixation, stolen cookies, invitation reuse and expiry, brute force, oversize bodies, and
// scans of every response and log line for secrets (P04).
import { createUser } from "@secondshift/accounts/testing";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import { describe, expect } from "vitest";
import type { AppRouter } from "./root.ts";
import { startTestApi, type TestBrowser } from "./testing/index.ts";

const password = "owner passphrase 0123456789";
const newcomerPassword = "newcomer passphrase 98765";

/** A fixture: an API with these sign-in limits over the file's database, closed after the file. */
const testApi =
  (limits: { maxPerAccount: number; maxPerAddress: number }) =>
  async ({ db }: { db: Db }, { onCleanup }: { onCleanup: (fn: () => Promise<void>) => void }) => {
    const api = await startTestApi(db, { limits });
    onCleanup(() => api.close());
    return api;
  };

const test = dbTest
  .extend("api", { scope: "file" }, testApi({ maxPerAccount: 100, maxPerAddress: 1000 }))
  .extend("workspaceId", { scope: "file" }, async ({ db }) => {
    return (await db.workspace.create({ data: { slug: "http-ws", name: "W" } })).id;
  })
  .extend("otherWorkspaceId", { scope: "file" }, async ({ db }) => {
    return (await db.workspace.create({ data: { slug: "other-ws", name: "O" } })).id;
  })
  .extend("owner", { scope: "file" }, ({ db, workspaceId }) =>
    createUser(db, password, { workspaceId, role: "OWNER" }),
  )
  /** A browser of `api`, signed in (as the owner unless told otherwise). */
  .extend(
    "signedIn",
    { scope: "file" },
    ({ api, owner }) =>
      async (who: { email: string } = owner, pw = password): Promise<TestBrowser> => {
        const browser = api.browser();
        await browser.trpc.auth.signIn.mutate({ email: who.email, password: pw });
        return browser;
      },
  )
  /** A raw POST to a procedure, as an attacker's page or script would send it. */
  .extend(
    "rawPost",
    { scope: "file" },
    ({ api }) =>
      (
        browser: TestBrowser,
        path: string,
        init: RequestInit & { headers?: Record<string, string> },
      ) =>
        browser.fetch(`${api.base}/${path}`, { method: "POST", ...init }),
  )
  .extend("limited", { scope: "file" }, testApi({ maxPerAccount: 3, maxPerAddress: 5 }))
  .extend("timed", { scope: "file" }, testApi({ maxPerAccount: 100, maxPerAddress: 1000 }));

const errorData = (e: unknown) => (e as TRPCClientError<AppRouter>).data;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => errorData(e),
  );

const jsonBody = (input: unknown) => JSON.stringify(superjson.serialize(input));

async function stillSignedIn(browser: TestBrowser): Promise<boolean> {
  return browser.trpc.auth.me.query().then(
    () => true,
    () => false,
  );
}

describe("CSRF and request hygiene", () => {
  test("a cross-site multipart form POST is refused before tRPC runs it: no side effect", async ({
    signedIn,
    rawPost,
  }) => {
    const victim = await signedIn();
    const form = new FormData();
    form.set("x", "y");
    const attacks: Array<Record<string, string>> = [
      { origin: "https://evil.example" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      { origin: "null" },
    ];
    for (const headers of attacks) {
      const response = await rawPost(victim, "auth.signOutEverywhere", { body: form, headers });
      expect(response.status).toBe(403);
    }
    // Even a form from our own origin is refused: mutations are JSON only.
    const sameSiteForm = await rawPost(victim, "auth.signOutEverywhere", { body: form });
    expect(sameSiteForm.status).toBe(415);
    const textPlain = await rawPost(victim, "auth.signOutEverywhere", {
      body: "{}",
      headers: { "content-type": "text/plain" },
    });
    expect(textPlain.status).toBe(415);
    expect(await stillSignedIn(victim)).toBe(true);
  });

  test("a JSON mutation with a wrong Origin, or marked cross-site, is refused: no invitation made", async ({
    db,
    api,
    workspaceId,
    signedIn,
    rawPost,
  }) => {
    const victim = await signedIn();
    const body = jsonBody({ workspaceId, email: "attacker@evil.example", role: "OWNER" });
    const attacks: Array<Record<string, string>> = [
      { origin: "https://evil.example" },
      { origin: `${api.origin}.evil.example` },
      { origin: "null" },
      { origin: api.origin, "sec-fetch-site": "cross-site" },
      { origin: api.origin, "sec-fetch-site": "same-site" },
    ];
    for (const headers of attacks) {
      const response = await rawPost(victim, "auth.invitations.create", {
        body,
        headers: { "content-type": "application/json", ...headers },
      });
      expect(response.status).toBe(403);
    }
    expect(await db.invitation.count({ where: { email: "attacker@evil.example" } })).toBe(0);
  });

  test("a same-origin JSON mutation passes (Origin, or Sec-Fetch-Site without Origin)", async ({
    api,
    workspaceId,
    signedIn,
    rawPost,
  }) => {
    const browser = await signedIn();
    const withOrigin = await rawPost(browser, "auth.invitations.create", {
      body: jsonBody({ workspaceId, email: "ok1@example.test", role: "VIEWER" }),
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(withOrigin.status).toBe(200);
    const withFetchSite = await fetch(`${api.base}/auth.invitations.create`, {
      method: "POST",
      body: jsonBody({ workspaceId, email: "ok2@example.test", role: "VIEWER" }),
      headers: {
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
        cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
    expect(withFetchSite.status).toBe(200);
  });

  test("a mutation cannot be triggered by a GET (a cross-site link or image)", async ({
    api,
    signedIn,
  }) => {
    const victim = await signedIn();
    const response = await victim.fetch(`${api.base}/auth.signOutEverywhere`, {
      headers: { origin: "https://evil.example" },
    });
    expect(response.status).toBe(405);
    expect(await stillSignedIn(victim)).toBe(true);
  });

  test("[P04] validation errors do not echo the rejected password", async ({ api, signedIn }) => {
    const browser = await signedIn();
    const weak = "weakpw-7731";
    const error = await failure(
      browser.trpc.auth.changePassword.mutate({ currentPassword: password, newPassword: weak }),
    );
    expect(error).toMatchObject({ code: "BAD_REQUEST", httpStatus: 400 });
    expect(error?.fieldErrors).toMatchObject({ newPassword: ["Use at least 12 characters."] });
    expect(api.bodies.at(-1)).not.toContain(weak);
    expect(api.bodies.at(-1)).not.toContain(password);
  });

  test("bodies over 1 MiB get 413, declared or streamed", async ({ api, rawPost }) => {
    const browser = api.browser();
    const big = JSON.stringify({ json: { email: "a@b.c", password: "x".repeat(1024 * 1024) } });
    const declared = await rawPost(browser, "auth.signIn", {
      body: big,
      headers: { "content-type": "application/json" },
    });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 20; i++)
          controller.enqueue(new TextEncoder().encode("x".repeat(65_536)));
        controller.close();
      },
    });
    const streamed = await rawPost(browser, "auth.signIn", {
      body: stream,
      headers: { "content-type": "application/json" },
      duplex: "half",
    });
    expect(streamed.status).toBe(413);
  });
});

describe("sessions over HTTP", () => {
  test("session fixation: a cookie planted before sign-in is not the session after", async ({
    api,
    owner,
  }) => {
    const browser = api.browser();
    const planted = "ss_ses_" + "P".repeat(43);
    browser.cookies.set("ss_session", planted);
    expect(await failure(browser.trpc.auth.me.query())).toMatchObject({ code: "UNAUTHORIZED" });
    await browser.trpc.auth.signIn.mutate({ email: owner.email, password });
    const issued = browser.cookies.get("ss_session");
    expect(issued).toMatch(/^ss_ses_/);
    expect(issued).not.toBe(planted);
    const attacker = api.browser();
    attacker.cookies.set("ss_session", planted);
    expect(await failure(attacker.trpc.auth.me.query())).toMatchObject({ httpStatus: 401 });
    expect(await stillSignedIn(browser)).toBe(true);
  });

  test("a fresh cookie at every sign-in, and the browser's previous session ends", async ({
    api,
    owner,
    signedIn,
  }) => {
    const browser = await signedIn();
    const first = browser.cookies.get("ss_session")!;
    await browser.trpc.auth.signIn.mutate({ email: owner.email, password });
    const second = browser.cookies.get("ss_session")!;
    expect(second).not.toBe(first);
    const old = api.browser();
    old.cookies.set("ss_session", first);
    expect(await stillSignedIn(old)).toBe(false);
  });

  test("a stolen cookie stops working after sign-out", async ({ api, signedIn }) => {
    const victim = await signedIn();
    const thief = api.browser();
    thief.cookies.set("ss_session", victim.cookies.get("ss_session")!);
    expect(await stillSignedIn(thief)).toBe(true);
    await victim.trpc.auth.signOut.mutate();
    expect(victim.cookies.has("ss_session")).toBe(false);
    expect(victim.setCookies.at(-1)).toMatch(/Max-Age=0/);
    expect(await failure(thief.trpc.auth.me.query())).toMatchObject({ code: "UNAUTHORIZED" });
  });

  test("sign out everywhere ends the other devices' sessions", async ({ signedIn }) => {
    const laptop = await signedIn();
    const phone = await signedIn();
    const { ended } = await laptop.trpc.auth.signOutEverywhere.mutate();
    expect(ended).toBeGreaterThanOrEqual(2);
    expect(await stillSignedIn(phone)).toBe(false);
    expect(await stillSignedIn(laptop)).toBe(false);
  });

  test("a password change ends every other session and keeps this browser signed in", async ({
    db,
    signedIn,
  }) => {
    const user = await createUser(db, password);
    const here = await signedIn(user);
    const elsewhere = await signedIn(user);
    await here.trpc.auth.changePassword.mutate({
      currentPassword: password,
      newPassword: "the new passphrase 2026",
    });
    expect(await stillSignedIn(here)).toBe(true);
    expect(await stillSignedIn(elsewhere)).toBe(false);
    // The new session of this browser keeps where it was signed in from.
    const [renewed] = await here.trpc.auth.sessions.list.query();
    expect(renewed!.clientAddress).toMatch(/^(127\.0\.0\.1|::1)$/);
  });

  test("[P05] lists only one's own sessions and cannot revoke another user's", async ({
    db,
    signedIn,
  }) => {
    const alice = await createUser(db, password);
    const bob = await createUser(db, password);
    const aliceBrowser = await signedIn(alice);
    const bobBrowser = await signedIn(bob);
    const [bobSession] = await bobBrowser.trpc.auth.sessions.list.query();
    const aliceSessions = await aliceBrowser.trpc.auth.sessions.list.query();
    expect(aliceSessions).toHaveLength(1);
    expect(aliceSessions[0]).toMatchObject({ current: true });
    expect(aliceSessions[0]!.createdAt).toBeInstanceOf(Date);
    // Where it was signed in from: the client address (no trusted proxy here: the TCP peer).
    expect(aliceSessions[0]!.clientAddress).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(
      await failure(aliceBrowser.trpc.auth.sessions.revoke.mutate({ sessionId: bobSession!.id })),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect(await stillSignedIn(bobBrowser)).toBe(true);
  });
});

describe("invitations over HTTP", () => {
  test("an invitation link works once: the second accept is refused", async ({
    api,
    workspaceId,
    signedIn,
  }) => {
    const ownerBrowser = await signedIn();
    const created = await ownerBrowser.trpc.auth.invitations.create.mutate({
      workspaceId,
      email: "newcomer@example.test",
      role: "ADMIN",
    });
    const link = new URL(created.link);
    expect(link.origin).toBe(api.origin);
    expect(link.pathname).toBe("/invite");
    expect(link.search).toBe("");
    const token = new URLSearchParams(link.hash.slice(1)).get("token")!;
    const newcomer = api.browser();
    const preview = await newcomer.trpc.auth.invitations.preview.mutate({ token });
    expect(preview).toMatchObject({ state: "open", role: "ADMIN", email: "newcomer@example.test" });
    expect(preview.workspaceName).not.toBe("");
    expect(preview.inviterName).not.toBe("");
    const accepted = await newcomer.trpc.auth.invitations.accept.mutate({
      token,
      name: "Newcomer",
      password: newcomerPassword,
    });
    expect(accepted).toEqual({ workspaceId, role: "ADMIN" });
    expect((await newcomer.trpc.auth.me.query()).email).toBe("newcomer@example.test");

    const replay = await failure(
      api.browser().trpc.auth.invitations.accept.mutate({
        token,
        name: "Attacker",
        password: "attacker passphrase",
      }),
    );
    expect(replay).toMatchObject({ code: "CONFLICT", reason: "INVITATION_USED" });
    expect(await api.browser().trpc.auth.invitations.preview.mutate({ token })).toMatchObject({
      state: "used",
    });
  });

  test("a revoked invitation is refused", async ({ api, workspaceId, signedIn }) => {
    const ownerBrowser = await signedIn();
    const created = await ownerBrowser.trpc.auth.invitations.create.mutate({
      workspaceId,
      email: "revoked@example.test",
      role: "VIEWER",
    });
    await ownerBrowser.trpc.auth.invitations.revoke.mutate({
      workspaceId,
      invitationId: created.invitationId,
    });
    const token = new URLSearchParams(new URL(created.link).hash.slice(1)).get("token")!;
    const result = await failure(
      api
        .browser()
        .trpc.auth.invitations.accept.mutate({ token, name: "R", password: newcomerPassword }),
    );
    expect(result).toMatchObject({ reason: "INVITATION_REVOKED" });
  });

  test("[C02] an admin cannot invite; [P05] another workspace behaves as not found", async ({
    db,
    workspaceId,
    otherWorkspaceId,
    signedIn,
  }) => {
    const admin = await createUser(db, password, { workspaceId, role: "ADMIN" });
    const adminBrowser = await signedIn(admin);
    expect(
      await failure(
        adminBrowser.trpc.auth.invitations.create.mutate({
          workspaceId,
          email: "friend@example.test",
          role: "OWNER",
        }),
      ),
    ).toMatchObject({ code: "FORBIDDEN" });
    const ownerBrowser = await signedIn();
    expect(
      await failure(
        ownerBrowser.trpc.auth.invitations.create.mutate({
          workspaceId: otherWorkspaceId,
          email: "friend@example.test",
          role: "ADMIN",
        }),
      ),
    ).toMatchObject({ code: "NOT_FOUND", httpStatus: 404 });
    const otherOwner = await createUser(db, password, {
      workspaceId: otherWorkspaceId,
      role: "OWNER",
    });
    const foreign = await (
      await signedIn(otherOwner)
    ).trpc.auth.invitations.create.mutate({
      workspaceId: otherWorkspaceId,
      email: "theirs@example.test",
      role: "VIEWER",
    });
    expect(
      await failure(
        ownerBrowser.trpc.auth.invitations.revoke.mutate({
          workspaceId,
          invitationId: foreign.invitationId,
        }),
      ),
    ).toMatchObject({ code: "NOT_FOUND" });
    expect(await db.invitation.count({ where: { email: "friend@example.test" } })).toBe(0);
  });

  test("[P04] no response body or log line holds a password, password hash, token hash or session token", async ({
    db,
    api,
  }) => {
    const bodies = api.bodies.join("\n");
    expect(bodies.length).toBeGreaterThan(1000);
    const users = await db.user.findMany({ select: { passwordHash: true } });
    const sessions = await db.session.findMany({ select: { tokenHash: true } });
    const invitations = await db.invitation.findMany({ select: { tokenHash: true } });
    const hashes = [...sessions, ...invitations].flatMap(({ tokenHash }) => [
      Buffer.from(tokenHash).toString("hex"),
      Buffer.from(tokenHash).toString("base64"),
    ]);
    for (const text of [bodies, api.logs()]) {
      expect(text).not.toMatch(/passwordHash|tokenHash|\$argon2id\$/);
      expect(text).not.toContain(password);
      expect(text).not.toContain(newcomerPassword);
      expect(text).not.toContain("ss_ses_"); // session tokens travel only in Set-Cookie
      for (const { passwordHash } of users) expect(text).not.toContain(passwordHash);
      for (const hash of hashes) expect(text).not.toContain(hash);
    }
    expect(api.logs()).not.toContain("ss_inv_");
  });
});

describe("brute force over HTTP", () => {
  test("N wrong passwords → 429, even with the right password next; then the address is limited across emails", async ({
    db,
    owner,
    limited,
  }) => {
    const attacker = limited.browser();
    for (let i = 0; i < 3; i++) {
      expect(
        await failure(
          attacker.trpc.auth.signIn.mutate({ email: owner.email, password: `guess${i}` }),
        ),
      ).toMatchObject({ code: "UNAUTHORIZED", reason: "INVALID_CREDENTIALS" });
    }
    const blocked = await failure(
      limited.browser().trpc.auth.signIn.mutate({ email: owner.email, password }),
    );
    expect(blocked).toMatchObject({ code: "TOO_MANY_REQUESTS", httpStatus: 429 });
    // Unknown emails answer exactly like wrong passwords.
    const unknown = await failure(
      attacker.trpc.auth.signIn.mutate({ email: "nobody@example.test", password: "guess" }),
    );
    expect(unknown).toMatchObject({ code: "UNAUTHORIZED", reason: "INVALID_CREDENTIALS" });
    // 127.0.0.1 has now used its 5 attempts: any other account is refused from it too.
    const other = await createUser(db, password);
    const sameAddress = await failure(
      limited.browser().trpc.auth.signIn.mutate({ email: other.email, password }),
    );
    expect(sameAddress).toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });
});

describe("invitation expiry over HTTP", () => {
  test("an expired invitation link is refused and creates no account", async ({
    db,
    workspaceId,
    owner,
    timed,
  }) => {
    const ownerBrowser = timed.browser();
    await ownerBrowser.trpc.auth.signIn.mutate({ email: owner.email, password });
    const created = await ownerBrowser.trpc.auth.invitations.create.mutate({
      workspaceId,
      email: "late@example.test",
      role: "VIEWER",
    });
    expect(created.expiresAt.getTime() - timed.accounts.clock.now().getTime()).toBe(
      7 * 24 * 3600_000,
    );
    timed.accounts.clock.advance(7 * 24 * 3600_000 + 1000);
    const token = new URLSearchParams(new URL(created.link).hash.slice(1)).get("token")!;
    const late = await failure(
      timed.browser().trpc.auth.invitations.accept.mutate({
        token,
        name: "Late",
        password: newcomerPassword,
      }),
    );
    expect(late).toMatchObject({ code: "CONFLICT", reason: "INVITATION_EXPIRED" });
    expect(await db.user.count({ where: { email: "late@example.test" } })).toBe(0);
  });
});

describe("unexpected failures", () => {
  test("[P04] a failing dependency gives a generic message; the log has no password or stack in the body", async ({
    db,
    owner,
  }) => {
    const broken = await startTestApi(db);
    try {
      broken.accounts.redis.disconnect();
      const browser = broken.browser();
      const error = await browser.trpc.auth.signIn
        .mutate({ email: owner.email, password })
        .catch((e: unknown) => e as TRPCClientError<AppRouter>);
      expect(error).toMatchObject({
        message: "The request failed on the server. Retry in a moment.",
        data: { code: "INTERNAL_SERVER_ERROR", httpStatus: 500 },
      });
      const body = broken.bodies.at(-1)!;
      expect(body).not.toMatch(/Connection is closed|ioredis|\bat /);
      expect(broken.logs()).toContain("api procedure failed");
      expect(broken.logs()).not.toContain(password);
    } finally {
      await broken.close();
    }
  });
});
