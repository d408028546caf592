// The worker's actor check of event runs against the real database and a loopback GitHub
// (the fake App's server: real token minting, real permission and pull request routes),
// through the real netguard client and the real minter.
import { afterAll, beforeAll, describe, expect } from "vitest";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import {
  connectGithubApp,
  startApplyFixture,
  testKeyring,
  type ApplyFixture,
} from "@secondshift/outputs/testing/apply-fixture";
import { routeEventGithub, seedEventRun, type FakeEventGithub } from "../testing/event-github.ts";
import { createEventGithub } from "./github.ts";
import { screenEventRun, type ScreenDeps } from "./screen.ts";
import type { Db } from "@secondshift/db";

let fixture: ApplyFixture;
let github: FakeEventGithub;

beforeAll(async () => {
  // The fixture's own database is not used: only its fake App, minter and outbound fetch.
  fixture = await startApplyFixture(undefined as unknown as Db);
  github = routeEventGithub(fixture.app, { owner: "acme", repo: "app" });
});
afterAll(() => fixture.close());

function screenDeps(db: Db): ScreenDeps {
  return {
    db,
    logger: createLogger({ name: "test", destination: createMemorySink().stream }),
    github: createEventGithub({
      keyring: testKeyring,
      fetch: fixture.deps.fetch,
      mintInstallationToken: fixture.deps.mintToken,
      userAgent: "secondshift-test/1",
    }),
  };
}

async function stateOf(db: Db, run: { id: string }, event: { id: string }) {
  const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
  const trigger = await db.triggerEvent.findUniqueOrThrow({ where: { id: event.id } });
  return { run: row, event: trigger };
}

describe("screenEventRun", () => {
  test("[E03] a non-collaborator's event run is cancelled before start, naming who and why", async ({
    db,
    seed,
  }) => {
    await connectGithubApp(db, seed, fixture.app);
    github.permissions.delete("mallory");
    const { run, event } = await seedEventRun(db, seed, { event: { actorLogin: "mallory" } });
    const before = fixture.app.revoked.length;
    await screenEventRun(screenDeps(db), run);
    const after = await stateOf(db, run, event);
    expect(after.run.status).toBe("CANCELLED");
    expect(after.run.startedAt).toBeNull();
    expect(after.run.error).toContain("@mallory");
    expect(after.run.error).toContain('"none" permission');
    expect(after.event).toMatchObject({
      actorPermission: "none",
      outcome: "dropped",
      dropReason: "actor_not_allowed",
    });
    expect(after.event.actorCheckedAt).not.toBeNull();
    const audit = await db.auditEvent.findMany({
      where: { workspaceId: seed.workspaceId, action: "event.actor_refused" },
    });
    expect(audit).toMatchObject([
      { actorType: "SYSTEM", targetType: "TriggerEvent", targetId: event.id },
    ]);
    // The read-only token it minted (metadata only) was revoked after the lookup.
    const mint = fixture.app.mints.at(-1);
    expect(mint?.body).toEqual({ repositories: ["app"], permissions: { metadata: "read" } });
    expect(fixture.app.revoked.length).toBe(before + 1);
  });

  test("[E03] a reader's event run runs where the owner allowed outsiders, permission kept", async ({
    db,
    seed,
  }) => {
    await connectGithubApp(db, seed, fixture.app);
    await db.job.update({ where: { id: seed.jobId }, data: { allowOutsiderEvents: true } });
    github.permissions.set("rita", "read");
    const { run, event } = await seedEventRun(db, seed, { event: { actorLogin: "rita" } });
    await screenEventRun(screenDeps(db), run);
    const after = await stateOf(db, run, event);
    expect(after.run.status).toBe("QUEUED");
    expect(after.event).toMatchObject({ actorPermission: "read", outcome: "queued" });
  });

  test("[E03] a collaborator with write access starts the run; the next attempt does not ask again", async ({
    db,
    seed,
  }) => {
    await connectGithubApp(db, seed, fixture.app);
    github.permissions.set("wendy", "write");
    const { run, event } = await seedEventRun(db, seed, { event: { actorLogin: "wendy" } });
    await screenEventRun(screenDeps(db), run);
    const reads = github.reads.length;
    await screenEventRun(screenDeps(db), run);
    expect(github.reads.length).toBe(reads);
    const after = await stateOf(db, run, event);
    expect(after.run.status).toBe("QUEUED");
    expect(after.event.actorPermission).toBe("write");
  });

  test("[E03] a failed permission lookup starts nothing", async ({ db, seed }) => {
    await connectGithubApp(db, seed, fixture.app);
    github.permissions.set("wendy", "admin");
    github.failWith = 502;
    try {
      const { run, event } = await seedEventRun(db, seed, { event: { actorLogin: "wendy" } });
      await screenEventRun(screenDeps(db), run);
      const after = await stateOf(db, run, event);
      expect(after.run.status).toBe("CANCELLED");
      expect(after.run.error).toContain("could not be checked");
      expect(after.event).toMatchObject({ outcome: "dropped", dropReason: "actor_check_failed" });
      expect(after.event.actorCheckedAt).toBeNull();
    } finally {
      github.failWith = null;
    }
  });

  test("[E03] a lookup the outbound policy refuses starts nothing", async ({ db, seed }) => {
    await connectGithubApp(db, seed, fixture.app);
    const { run, event } = await seedEventRun(db, seed);
    const deps = screenDeps(db);
    const refusing = createEventGithub({
      keyring: testKeyring,
      fetch: () => Promise.reject(new Error("refused by the outbound policy")),
      mintInstallationToken: fixture.deps.mintToken,
      userAgent: "secondshift-test/1",
    });
    await screenEventRun({ ...deps, github: refusing }, run);
    const after = await stateOf(db, run, event);
    expect(after.run.status).toBe("CANCELLED");
    expect(after.event.dropReason).toBe("actor_check_failed");
  });

  test("[E03] a repository without a connection starts nothing", async ({ db, seed }) => {
    const { run, event } = await seedEventRun(db, seed);
    await screenEventRun(screenDeps(db), run);
    const after = await stateOf(db, run, event);
    expect(after.run.status).toBe("CANCELLED");
    expect(after.event.dropReason).toBe("actor_check_failed");
  });

  test("a comment command on a pull request runs on the pull request's head now", async ({
    db,
    seed,
  }) => {
    await connectGithubApp(db, seed, fixture.app);
    github.permissions.set("wendy", "maintain");
    github.heads.set(12, "b".repeat(40));
    const { run, event } = await seedEventRun(db, seed, {
      commitSha: null,
      event: {
        kind: "comment_command",
        action: "created",
        subjectNumber: 12,
        actorLogin: "wendy",
        headSha: null,
      },
    });
    await screenEventRun(screenDeps(db), run);
    const after = await stateOf(db, run, event);
    expect(after.run).toMatchObject({ status: "QUEUED", commitSha: "b".repeat(40) });
    expect(after.event.headSha).toBe("b".repeat(40));
    expect(fixture.app.mints.at(-1)?.body.permissions).toEqual({
      metadata: "read",
      pull_requests: "read",
    });
  });

  test("non-event runs and runs no longer queued are left alone", async ({ db, seed }) => {
    const manual = await db.run.create({
      data: {
        workspaceId: seed.workspaceId,
        jobId: seed.jobId,
        trigger: "MANUAL",
        budgetTokens: 1,
      },
    });
    const running = await seedEventRun(db, seed, { status: "RUNNING" });
    const reads = github.reads.length;
    await screenEventRun(screenDeps(db), manual);
    await screenEventRun(screenDeps(db), running.run);
    expect(github.reads.length).toBe(reads);
    expect((await db.run.findUniqueOrThrow({ where: { id: manual.id } })).status).toBe("QUEUED");
    expect((await db.run.findUniqueOrThrow({ where: { id: running.run.id } })).status).toBe(
      "RUNNING",
    );
  });
});
