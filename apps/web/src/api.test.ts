// The owner API as the real web process serves it: the setup link printed at first start, setup
// through /api/trpc/ with that token, the session cookie, and the CSRF guard in front.
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { seedRun, seedWorkspace } from "@secondshift/db/testing";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import { appendRunEvent, finishRun } from "@secondshift/run-lifecycle";
import { freePort, startService, type StartedService } from "@secondshift/service/testing";
import { afterAll, describe, expect } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
let web: StartedService;
let origin: string;

// The web process over the file's database, started in a hook: on a loaded machine it can take
// longer to start (up to a minute) than a test may run.
test.beforeAll(async ({ testDatabase }) => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  web = startService(main, {
    DATABASE_URL: testDatabase.url,
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    SECONDSHIFT_PUBLIC_URL: origin,
    SECONDSHIFT_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    PORT: String(port),
  });
  // Up to a minute: on a loaded 2-core machine tsx compiling the web app takes a while.
  for (let i = 0; ; i++) {
    const health = await fetch(`${origin}/healthz`).catch(() => undefined);
    if (health?.status === 200) break;
    if (i === 600) throw new Error(`the web service did not start:\n${web.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  web.child.kill("SIGTERM");
  await web.exited;
});

const post = (path: string, body: string | FormData, headers: Record<string, string>) =>
  fetch(`${origin}/api/trpc/${path}`, { method: "POST", body, headers });

describe("owner API in the web process", () => {
  test("prints the setup link once; setup needs its token and signs the owner in", async () => {
    const links = web.output().match(/\/setup\?token=[A-Za-z0-9_-]+/g) ?? [];
    expect(links).toHaveLength(1);
    const token = new URLSearchParams(links[0]!.split("?")[1]).get("token")!;
    const input = {
      email: "owner@example.test",
      name: "Owner",
      password: "a long enough passphrase",
      workspaceName: "Acme",
    };
    const json = { "content-type": "application/json", origin };
    const refused = await post("auth.setup", JSON.stringify({ json: input }), json);
    expect(refused.status).toBe(403);

    const done = await post(
      "auth.setup",
      JSON.stringify({ json: { ...input, setupToken: token } }),
      json,
    );
    expect(done.status).toBe(200);
    const cookie = done.headers.getSetCookie()[0]!.split(";")[0]!;
    expect(cookie).toMatch(/^ss_session=ss_ses_/);
    const me = await fetch(`${origin}/api/trpc/auth.me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.text()).toContain("owner@example.test");
    expect(web.output()).not.toContain(cookie.split("=")[1]);
  });

  test("refuses a cross-site form POST before tRPC runs; health and 404 unchanged", async () => {
    const form = new FormData();
    form.set("a", "b");
    const response = await post("auth.signOutEverywhere", form, { origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect((await fetch(`${origin}/nope`)).status).toBe(404);
  });
});

describe("live run transcript in the web process", () => {
  test("streams a run's events over SSE from the process's shared listener", async ({ db }) => {
    const signIn = await post(
      "auth.signIn",
      JSON.stringify({
        json: { email: "owner@example.test", password: "a long enough passphrase" },
      }),
      { "content-type": "application/json", origin },
    );
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.getSetCookie()[0]!.split(";")[0]!;
    const owner = await db.user.findUniqueOrThrow({ where: { email: "owner@example.test" } });
    const seed = await seedWorkspace(db);
    await db.membership.create({
      data: { workspaceId: seed.workspaceId, userId: owner.id, role: "VIEWER" },
    });
    const run = await seedRun(db, seed, { status: "RUNNING" });
    const input = encodeURIComponent(
      JSON.stringify({ json: { workspaceId: seed.workspaceId, runId: run.id } }),
    );
    const stream = await fetch(`${origin}/api/trpc/runs.transcript?input=${input}`, {
      headers: { cookie, accept: "text/event-stream" },
    });
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    await appendRunEvent(db, run, { type: "message", payload: { text: "hello" } });
    await finishRun(db, run, { status: "SUCCEEDED" });
    const body = await stream.text();
    expect(body).toMatch(/"hello"[^]*\nid: 0\n[^]*"SUCCEEDED"[^]*\nid: 1\n/);
    expect(body).toContain("event: return");
  });
});
